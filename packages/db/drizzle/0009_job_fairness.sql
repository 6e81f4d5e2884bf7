ALTER TABLE "jobs" ADD COLUMN "requested_by" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "turn" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "jobs" SET "requested_by" = "owner_uid" WHERE "requested_by" IS NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_requested_by_users_uid_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("uid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_active_requester_idx" ON "jobs" USING btree ("requested_by") WHERE "jobs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "jobs_active_team_idx" ON "jobs" USING btree ("owner_team") WHERE "jobs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "jobs_active_turn_idx" ON "jobs" USING btree ("turn") WHERE "jobs"."status" in ('queued', 'running');