-- Live updates: every change the live stream delivers raises NOTIFY on channel veloptima_live,
-- whoever writes it (API, a worker, psql). The payload names the kind and whom it concerns.
CREATE OR REPLACE FUNCTION veloptima_notify_notification() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('veloptima_live', json_build_object('t', 'notification', 'uid', NEW.uid, 'seq', NEW.seq)::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER notifications_live AFTER INSERT ON notifications
  FOR EACH ROW EXECUTE FUNCTION veloptima_notify_notification();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION veloptima_notify_rider_profile() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('veloptima_live', json_build_object('t', 'rider-profile', 'uid', NEW.uid)::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER rider_profiles_live AFTER INSERT OR UPDATE ON rider_profiles
  FOR EACH ROW EXECUTE FUNCTION veloptima_notify_rider_profile();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION veloptima_notify_job() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('veloptima_live', json_build_object('t', 'job', 'id', NEW.id, 'uid', NEW.owner_uid, 'team', NEW.owner_team)::text);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER jobs_live AFTER INSERT OR UPDATE ON jobs
  FOR EACH ROW EXECUTE FUNCTION veloptima_notify_job();
