-- Logs (docs/decisions/0036-logs.md): device events become a time series partitioned by UTC day
-- (db/partitions.ts), so retention drops whole days; each project chooses its log retention.
ALTER TABLE "device_events" RENAME TO "device_events_old";--> statement-breakpoint
ALTER SEQUENCE "device_events_id_seq" RENAME TO "device_events_old_id_seq";--> statement-breakpoint
ALTER INDEX "device_events_pkey" RENAME TO "device_events_old_pkey";--> statement-breakpoint
ALTER INDEX "device_events_uq" RENAME TO "device_events_old_uq";--> statement-breakpoint
ALTER INDEX "device_events_project_idx" RENAME TO "device_events_old_project_idx";--> statement-breakpoint
CREATE TABLE "device_events" (
	"id" bigserial NOT NULL,
	"sn" text NOT NULL,
	"project_id" bigint,
	"event_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"event" text NOT NULL,
	"level" text NOT NULL,
	"message" text NOT NULL,
	"data" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_events_pkey" PRIMARY KEY ("id", "at")
) PARTITION BY RANGE ("at");--> statement-breakpoint
-- A repeated delivery of one event (same device, id and time) is one row; the writer also skips an
-- id the device already used within the kept window (src/logs/device-events.ts).
CREATE UNIQUE INDEX "device_events_uq" ON "device_events" USING btree ("sn","event_id","at");--> statement-breakpoint
CREATE INDEX "device_events_project_idx" ON "device_events" USING btree ("project_id","at");--> statement-breakpoint
CREATE INDEX "device_events_project_sn_idx" ON "device_events" USING btree ("project_id","sn","at");--> statement-breakpoint
-- What is older than the longest retention (180 days) is not kept; a time far ahead (a device
-- clock) is taken as received. Then one partition per day that has rows, and around today.
DELETE FROM "device_events_old" WHERE "at" < now() - interval '180 days';--> statement-breakpoint
UPDATE "device_events_old" SET "at" = least("received_at", now()) WHERE "at" > now() + interval '2 days';--> statement-breakpoint
DO $$
DECLARE d date;
BEGIN
  FOR d IN
    SELECT DISTINCT ("at" AT TIME ZONE 'UTC')::date FROM "device_events_old"
    UNION
    SELECT (now() AT TIME ZONE 'UTC')::date + i FROM generate_series(-1, 2) AS i
  LOOP
    EXECUTE format(
      'CREATE TABLE IF NOT EXISTS %I PARTITION OF "device_events" FOR VALUES FROM (%L) TO (%L)',
      'device_events_p' || to_char(d, 'YYYYMMDD'),
      d::timestamp AT TIME ZONE 'UTC',
      (d + 1)::timestamp AT TIME ZONE 'UTC'
    );
  END LOOP;
END $$;--> statement-breakpoint
INSERT INTO "device_events" ("id","sn","project_id","event_id","at","event","level","message","data","received_at")
  SELECT "id","sn","project_id","event_id","at","event","level","message","data","received_at" FROM "device_events_old"
  ON CONFLICT DO NOTHING;--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('"device_events"', 'id'), greatest((SELECT max("id") FROM "device_events_old"), 0) + 1, false);--> statement-breakpoint
DROP TABLE "device_events_old";--> statement-breakpoint
CREATE TABLE "project_log_settings" (
	"project_id" bigint PRIMARY KEY NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"retention_days" smallint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_log_settings_days" CHECK ("retention_days" IN (7, 30, 90, 180))
);--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");
