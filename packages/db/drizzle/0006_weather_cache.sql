CREATE TABLE "weather_cache" (
	"source" text NOT NULL,
	"lat_e2" integer NOT NULL,
	"lon_e2" integer NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"values" jsonb NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "weather_cache_source_lat_e2_lon_e2_hour_pk" PRIMARY KEY("source","lat_e2","lon_e2","hour")
);
--> statement-breakpoint
CREATE INDEX "weather_cache_expires_at" ON "weather_cache" USING btree ("expires_at");