-- Configuration backups (src/backups/, docs/decisions/0049): one row per backup from its request on
-- (sync status unsynchronized → synchronizing → synchronized or failed); the file in `content`
-- (JSON, secrets sealed) with its SHA-256 `checksum`. EXTERNAL storage keeps the file uncompressed
-- out of line, so a download reads it slice by slice (substring) instead of whole.
CREATE TABLE IF NOT EXISTS "config_backups" (
  "id" serial PRIMARY KEY,
  "project_id" bigint NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
  "sn" text NOT NULL,
  "model" text NOT NULL,
  "mac" text,
  "firmware" text,
  "type" text NOT NULL CHECK ("type" IN ('general', 'restore_point')),
  "trigger" text NOT NULL CHECK ("trigger" IN ('manual', 'auto', 'upload')),
  "status" text NOT NULL CHECK ("status" IN ('unsynchronized', 'synchronizing', 'synchronized', 'failed')),
  "code" integer,
  "message" text,
  "revision" integer,
  "config_hash" text,
  "file_name" text NOT NULL,
  "size" integer NOT NULL DEFAULT 0,
  "checksum" text,
  "content" bytea,
  "requested_by_id" integer REFERENCES "accounts"("id") ON DELETE SET NULL,
  "requested_by" text NOT NULL,
  "requested_at" timestamptz NOT NULL,
  "sync_started_at" timestamptz,
  "taken_at" timestamptz,
  "attempts" smallint NOT NULL DEFAULT 0,
  CONSTRAINT "config_backups_content_when_synced" CHECK (("status" = 'synchronized') = ("content" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "config_backups" ALTER COLUMN "content" SET STORAGE EXTERNAL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "config_backups_project_idx" ON "config_backups" ("project_id", "requested_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "config_backups_device_idx" ON "config_backups" ("project_id", "sn", "requested_at");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "config_backups_open_idx" ON "config_backups" ("status", "requested_at")
  WHERE "status" IN ('unsynchronized', 'synchronizing');
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "config_backups_restore_point_uq" ON "config_backups" ("project_id", "sn")
  WHERE "type" = 'restore_point' AND "status" = 'synchronized';
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "backup_settings" (
  "project_id" bigint PRIMARY KEY REFERENCES "projects"("id") ON DELETE CASCADE,
  "after_change" boolean NOT NULL DEFAULT false,
  "every_hours" smallint NOT NULL DEFAULT 0 CHECK ("every_hours" IN (0, 6, 12, 24, 168)),
  "updated_at" timestamptz NOT NULL DEFAULT now()
);
