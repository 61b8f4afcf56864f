-- Per-project retention of the daily statistics (docs/decisions/0045, docs/monitoring-storage.md):
-- the hourly retention pass deletes a project's daily rows older than its log retention choice.
-- The daily tables are not partitioned and their primary keys are (project_id, sn, ...), so without
-- these a project's delete would read every daily row it has, every hour.
CREATE INDEX IF NOT EXISTS "stats_device_1d_project_bucket" ON "stats_device_1d" ("project_id", "bucket");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "stats_dim_1d_project_bucket" ON "stats_dim_1d" ("project_id", "bucket");
