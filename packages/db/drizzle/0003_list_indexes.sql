-- Lists read a page of an owner's items newest first: one index per owner column followed by the
-- keyset order (created_at, id) replaces the single-column owner indexes; sample courses get a
-- partial index in the same order; notifications get (uid, seq) for the unfiltered list.
DROP INDEX "rider_setups_owner_uid_idx";--> statement-breakpoint
DROP INDEX "rider_setups_owner_team_idx";--> statement-breakpoint
DROP INDEX "courses_owner_uid_idx";--> statement-breakpoint
DROP INDEX "courses_owner_team_idx";--> statement-breakpoint
DROP INDEX "files_owner_uid_idx";--> statement-breakpoint
DROP INDEX "files_owner_team_idx";--> statement-breakpoint
DROP INDEX "jobs_owner_uid_idx";--> statement-breakpoint
DROP INDEX "jobs_owner_team_idx";--> statement-breakpoint
DROP INDEX "optimizations_owner_uid_idx";--> statement-breakpoint
DROP INDEX "optimizations_owner_team_idx";--> statement-breakpoint
DROP INDEX "aero_sessions_owner_uid_idx";--> statement-breakpoint
DROP INDEX "aero_sessions_owner_team_idx";--> statement-breakpoint
DROP INDEX "devices_owner_uid_idx";--> statement-breakpoint
DROP INDEX "devices_owner_team_idx";--> statement-breakpoint
CREATE INDEX "rider_setups_owner_uid_keyset_idx" ON "rider_setups" USING btree ("owner_uid","created_at","id");--> statement-breakpoint
CREATE INDEX "rider_setups_owner_team_keyset_idx" ON "rider_setups" USING btree ("owner_team","created_at","id");--> statement-breakpoint
CREATE INDEX "courses_owner_uid_keyset_idx" ON "courses" USING btree ("owner_uid","created_at","id");--> statement-breakpoint
CREATE INDEX "courses_owner_team_keyset_idx" ON "courses" USING btree ("owner_team","created_at","id");--> statement-breakpoint
CREATE INDEX "courses_sample_keyset_idx" ON "courses" USING btree ("created_at","id") WHERE "courses"."sample";--> statement-breakpoint
CREATE INDEX "files_owner_uid_keyset_idx" ON "files" USING btree ("owner_uid","created_at","id");--> statement-breakpoint
CREATE INDEX "files_owner_team_keyset_idx" ON "files" USING btree ("owner_team","created_at","id");--> statement-breakpoint
CREATE INDEX "jobs_owner_uid_keyset_idx" ON "jobs" USING btree ("owner_uid","created_at","id");--> statement-breakpoint
CREATE INDEX "jobs_owner_team_keyset_idx" ON "jobs" USING btree ("owner_team","created_at","id");--> statement-breakpoint
CREATE INDEX "optimizations_owner_uid_keyset_idx" ON "optimizations" USING btree ("owner_uid","created_at","id");--> statement-breakpoint
CREATE INDEX "optimizations_owner_team_keyset_idx" ON "optimizations" USING btree ("owner_team","created_at","id");--> statement-breakpoint
CREATE INDEX "notifications_uid_seq_idx" ON "notifications" USING btree ("uid","seq");--> statement-breakpoint
CREATE INDEX "aero_sessions_owner_uid_keyset_idx" ON "aero_sessions" USING btree ("owner_uid","created_at","id");--> statement-breakpoint
CREATE INDEX "aero_sessions_owner_team_keyset_idx" ON "aero_sessions" USING btree ("owner_team","created_at","id");--> statement-breakpoint
CREATE INDEX "devices_owner_uid_keyset_idx" ON "devices" USING btree ("owner_uid","created_at","id");--> statement-breakpoint
CREATE INDEX "devices_owner_team_keyset_idx" ON "devices" USING btree ("owner_team","created_at","id");