-- When the rollup job last computed each level: the hourly level runs every 5 minutes and the daily
-- one every 15, not every minute (stats/rollup.ts, docs/decisions/0072). Null: never, runs next time.
ALTER TABLE stats_watermarks ADD COLUMN ran_at timestamptz;
-- How long its last run took (ms): a level that costs little runs every minute whatever its cadence.
ALTER TABLE stats_watermarks ADD COLUMN took_ms integer;
