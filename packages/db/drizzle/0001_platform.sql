CREATE TYPE "public"."bike_type" AS ENUM('triathlon', 'time_trial', 'road_race', 'road_endurance');--> statement-breakpoint
CREATE TYPE "public"."plan_kind" AS ENUM('individual', 'team', 'aero');--> statement-breakpoint
CREATE TYPE "public"."plan_period" AS ENUM('month', 'year');--> statement-breakpoint
CREATE TYPE "public"."subscription_status" AS ENUM('active', 'cancelled', 'expired');--> statement-breakpoint
CREATE TYPE "public"."job_status" AS ENUM('queued', 'running', 'succeeded', 'failed', 'cancelled');--> statement-breakpoint
CREATE TYPE "public"."optimization_type" AS ENUM('pacing', 'equipment');--> statement-breakpoint
CREATE TYPE "public"."aero_block_kind" AS ENUM('cdam', 'run', 'raw');--> statement-breakpoint
CREATE TYPE "public"."aero_session_format" AS ENUM('v5', 'v6');--> statement-breakpoint
CREATE TABLE "feedback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"uid" text,
	"email" text,
	"text" text NOT NULL,
	"rating" integer,
	"page" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "feedback_rating" CHECK ("feedback"."rating" is null or "feedback"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "rider_profiles" (
	"uid" text PRIMARY KEY NOT NULL,
	"rider_name" text,
	"rider_height" double precision,
	"rider_weight" double precision,
	"cp" double precision,
	"w_prime" double precision,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rider_profiles_height" CHECK ("rider_profiles"."rider_height" is null or "rider_profiles"."rider_height" > 0),
	CONSTRAINT "rider_profiles_weight" CHECK ("rider_profiles"."rider_weight" is null or "rider_profiles"."rider_weight" > 0)
);
--> statement-breakpoint
CREATE TABLE "rider_setups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_uid" text,
	"owner_team" uuid,
	"name" text NOT NULL,
	"bike_type" "bike_type" DEFAULT 'road_race' NOT NULL,
	"rider_mass" double precision NOT NULL,
	"bike_mass" double precision NOT NULL,
	"extra_mass" double precision DEFAULT 0 NOT NULL,
	"positions" jsonb NOT NULL,
	"crr" jsonb NOT NULL,
	"drivetrain_efficiency" double precision DEFAULT 0.976 NOT NULL,
	"wheel_inertia" double precision DEFAULT 0.14 NOT NULL,
	"cp" double precision,
	"w_prime" double precision,
	"max_power" double precision,
	"max_lateral_acceleration" double precision DEFAULT 4 NOT NULL,
	"extras" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rider_setups_one_owner" CHECK (num_nonnulls("rider_setups"."owner_uid", "rider_setups"."owner_team") = 1)
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"uid" text,
	"team_id" uuid,
	"plan" "plan_kind" NOT NULL,
	"period" "plan_period" NOT NULL,
	"status" "subscription_status" DEFAULT 'active' NOT NULL,
	"starts_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_one_holder" CHECK (num_nonnulls("subscriptions"."uid", "subscriptions"."team_id") = 1)
);
--> statement-breakpoint
CREATE TABLE "courses" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_uid" text,
	"owner_team" uuid,
	"sample" boolean DEFAULT false NOT NULL,
	"name" text NOT NULL,
	"source_file_id" uuid,
	"source_format" text,
	"track" jsonb,
	"segments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"stats" jsonb,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "courses_owner" CHECK (("courses"."sample" and num_nonnulls("courses"."owner_uid", "courses"."owner_team") = 0) or num_nonnulls("courses"."owner_uid", "courses"."owner_team") = 1)
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_uid" text,
	"owner_team" uuid,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"storage_key" text NOT NULL,
	"sha256" text NOT NULL,
	"kind" text DEFAULT 'upload' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "files_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "files_one_owner" CHECK (num_nonnulls("files"."owner_uid", "files"."owner_team") = 1),
	CONSTRAINT "files_size" CHECK ("files"."size" >= 0)
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_uid" text,
	"owner_team" uuid,
	"kind" text NOT NULL,
	"status" "job_status" DEFAULT 'queued' NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"message" text,
	"subject_type" text,
	"subject_id" uuid,
	"boss_job_id" text,
	"idempotency_key" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"output" jsonb,
	"error" jsonb,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_idempotency_key_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "jobs_one_owner" CHECK (num_nonnulls("jobs"."owner_uid", "jobs"."owner_team") = 1),
	CONSTRAINT "jobs_progress" CHECK ("jobs"."progress" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "optimization_results" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"optimization_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"label" text,
	"status" "job_status" DEFAULT 'queued' NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"inputs" jsonb NOT NULL,
	"result" jsonb,
	"error" jsonb,
	"job_id" uuid,
	"export_file_id" uuid,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "optimization_results_progress" CHECK ("optimization_results"."progress" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "optimizations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_uid" text,
	"owner_team" uuid,
	"type" "optimization_type" NOT NULL,
	"name" text NOT NULL,
	"course_id" uuid,
	"rider_setup_id" uuid,
	"inputs" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "optimizations_one_owner" CHECK (num_nonnulls("optimizations"."owner_uid", "optimizations"."owner_team") = 1)
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "notifications_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"uid" text NOT NULL,
	"type" text DEFAULT 'info' NOT NULL,
	"title" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"download_blob" text,
	"data" jsonb,
	"showed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "aero_data_blocks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"run_id" uuid,
	"device_id" uuid,
	"kind" "aero_block_kind" NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"start_time" double precision,
	"end_time" double precision,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "aero_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"name" text NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"configuration" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"is_baseline" boolean DEFAULT false NOT NULL,
	"start_time" double precision,
	"end_time" double precision,
	"lap" integer,
	"results" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "aero_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_uid" text,
	"owner_team" uuid,
	"name" text NOT NULL,
	"format" "aero_session_format" DEFAULT 'v6' NOT NULL,
	"started_at" timestamp with time zone,
	"location" text,
	"notes" text,
	"devices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"environment" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"source_file_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "aero_sessions_one_owner" CHECK (num_nonnulls("aero_sessions"."owner_uid", "aero_sessions"."owner_team") = 1)
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_uid" text,
	"owner_team" uuid,
	"serial" text NOT NULL,
	"name" text NOT NULL,
	"model" text,
	"firmware" text,
	"calibration" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "devices_one_owner" CHECK (num_nonnulls("devices"."owner_uid", "devices"."owner_team") = 1)
);
--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_uid_users_uid_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("uid") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rider_profiles" ADD CONSTRAINT "rider_profiles_uid_users_uid_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rider_setups" ADD CONSTRAINT "rider_setups_owner_uid_users_uid_fk" FOREIGN KEY ("owner_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rider_setups" ADD CONSTRAINT "rider_setups_owner_team_teams_id_fk" FOREIGN KEY ("owner_team") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_uid_users_uid_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_owner_uid_users_uid_fk" FOREIGN KEY ("owner_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_owner_team_teams_id_fk" FOREIGN KEY ("owner_team") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_source_file_id_files_id_fk" FOREIGN KEY ("source_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_owner_uid_users_uid_fk" FOREIGN KEY ("owner_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_owner_team_teams_id_fk" FOREIGN KEY ("owner_team") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_owner_uid_users_uid_fk" FOREIGN KEY ("owner_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_owner_team_teams_id_fk" FOREIGN KEY ("owner_team") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_results" ADD CONSTRAINT "optimization_results_optimization_id_optimizations_id_fk" FOREIGN KEY ("optimization_id") REFERENCES "public"."optimizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_results" ADD CONSTRAINT "optimization_results_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimization_results" ADD CONSTRAINT "optimization_results_export_file_id_files_id_fk" FOREIGN KEY ("export_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimizations" ADD CONSTRAINT "optimizations_owner_uid_users_uid_fk" FOREIGN KEY ("owner_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimizations" ADD CONSTRAINT "optimizations_owner_team_teams_id_fk" FOREIGN KEY ("owner_team") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimizations" ADD CONSTRAINT "optimizations_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "optimizations" ADD CONSTRAINT "optimizations_rider_setup_id_rider_setups_id_fk" FOREIGN KEY ("rider_setup_id") REFERENCES "public"."rider_setups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_uid_users_uid_fk" FOREIGN KEY ("uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aero_data_blocks" ADD CONSTRAINT "aero_data_blocks_session_id_aero_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."aero_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aero_data_blocks" ADD CONSTRAINT "aero_data_blocks_run_id_aero_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."aero_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aero_data_blocks" ADD CONSTRAINT "aero_data_blocks_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aero_runs" ADD CONSTRAINT "aero_runs_session_id_aero_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."aero_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aero_sessions" ADD CONSTRAINT "aero_sessions_owner_uid_users_uid_fk" FOREIGN KEY ("owner_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aero_sessions" ADD CONSTRAINT "aero_sessions_owner_team_teams_id_fk" FOREIGN KEY ("owner_team") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "aero_sessions" ADD CONSTRAINT "aero_sessions_source_file_id_files_id_fk" FOREIGN KEY ("source_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_owner_uid_users_uid_fk" FOREIGN KEY ("owner_uid") REFERENCES "public"."users"("uid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_owner_team_teams_id_fk" FOREIGN KEY ("owner_team") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rider_setups_owner_uid_idx" ON "rider_setups" USING btree ("owner_uid");--> statement-breakpoint
CREATE INDEX "rider_setups_owner_team_idx" ON "rider_setups" USING btree ("owner_team");--> statement-breakpoint
CREATE INDEX "subscriptions_uid_idx" ON "subscriptions" USING btree ("uid");--> statement-breakpoint
CREATE INDEX "subscriptions_team_idx" ON "subscriptions" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "courses_owner_uid_idx" ON "courses" USING btree ("owner_uid");--> statement-breakpoint
CREATE INDEX "courses_owner_team_idx" ON "courses" USING btree ("owner_team");--> statement-breakpoint
CREATE INDEX "files_owner_uid_idx" ON "files" USING btree ("owner_uid");--> statement-breakpoint
CREATE INDEX "files_owner_team_idx" ON "files" USING btree ("owner_team");--> statement-breakpoint
CREATE INDEX "jobs_owner_uid_idx" ON "jobs" USING btree ("owner_uid");--> statement-breakpoint
CREATE INDEX "jobs_owner_team_idx" ON "jobs" USING btree ("owner_team");--> statement-breakpoint
CREATE INDEX "jobs_subject_idx" ON "jobs" USING btree ("subject_type","subject_id");--> statement-breakpoint
CREATE UNIQUE INDEX "optimization_results_version_idx" ON "optimization_results" USING btree ("optimization_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "optimization_results_job_idx" ON "optimization_results" USING btree ("job_id");--> statement-breakpoint
CREATE INDEX "optimizations_owner_uid_idx" ON "optimizations" USING btree ("owner_uid");--> statement-breakpoint
CREATE INDEX "optimizations_owner_team_idx" ON "optimizations" USING btree ("owner_team");--> statement-breakpoint
CREATE INDEX "optimizations_type_idx" ON "optimizations" USING btree ("type");--> statement-breakpoint
CREATE INDEX "notifications_uid_showed_idx" ON "notifications" USING btree ("uid","showed","seq");--> statement-breakpoint
CREATE INDEX "notifications_seq_idx" ON "notifications" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "aero_data_blocks_session_idx" ON "aero_data_blocks" USING btree ("session_id","kind","sequence");--> statement-breakpoint
CREATE INDEX "aero_data_blocks_run_idx" ON "aero_data_blocks" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "aero_runs_session_idx" ON "aero_runs" USING btree ("session_id","position");--> statement-breakpoint
CREATE INDEX "aero_sessions_owner_uid_idx" ON "aero_sessions" USING btree ("owner_uid");--> statement-breakpoint
CREATE INDEX "aero_sessions_owner_team_idx" ON "aero_sessions" USING btree ("owner_team");--> statement-breakpoint
CREATE INDEX "devices_owner_uid_idx" ON "devices" USING btree ("owner_uid");--> statement-breakpoint
CREATE INDEX "devices_owner_team_idx" ON "devices" USING btree ("owner_team");