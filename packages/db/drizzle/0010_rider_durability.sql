ALTER TABLE "rider_setups" ADD COLUMN "durability" double precision;--> statement-breakpoint
ALTER TABLE "rider_setups" ADD COLUMN "heat_acclimatised" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "rider_setups" ADD CONSTRAINT "rider_setups_durability" CHECK ("rider_setups"."durability" is null or ("rider_setups"."durability" >= 0 and "rider_setups"."durability" <= 0.5));