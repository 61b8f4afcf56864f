-- The statistics rollup folds each source bucket once (issue 16, stats/rollup.ts, docs/decisions/0075):
-- the 5-minute rows are kept at ingest (an additive upsert in the telemetry statement), and the
-- hourly and daily levels add each final source bucket once instead of recomputing the open hour or
-- day every run. How far a level has added its source, 5-minute (or hourly) aligned; null: not yet
-- folded (the next run recomputes its open buckets from the source, then folds).
ALTER TABLE stats_watermarks ADD COLUMN folded_until timestamptz;--> statement-breakpoint
-- True when the level's rows hold source buckets that are not final yet (a small fleet's level is
-- recomputed every run, the open buckets too): the next run recomputes them before it folds.
ALTER TABLE stats_watermarks ADD COLUMN open boolean NOT NULL DEFAULT false;--> statement-breakpoint
-- How many rows the level's open buckets hold (its last recompute of them wrote, or its last fold
-- touched): under 10,000 (a small fleet) it recomputes them every run (charts move every minute), past
-- that it folds. A count, not took_ms: one slow run must not turn a small fleet's charts to folding.
ALTER TABLE stats_watermarks ADD COLUMN open_rows integer;--> statement-breakpoint
-- The job reads the rollup tables by bucket range (the open 5-minute buckets, the bucket to fold,
-- the touched hours and days for the project rows): without these, each read scanned the day's
-- partition (100,000 devices: 29 M five-minute rows and 140 M dimension rows by the end of a day).
-- BRIN for the 5-minute tables, written in time order at ingest: a few pages, next to nothing to keep.
CREATE INDEX "stats_device_5m_bucket" ON "stats_device_5m" USING brin ("bucket") WITH (autosummarize = on);--> statement-breakpoint
CREATE INDEX "stats_dim_5m_bucket" ON "stats_dim_5m" USING brin ("bucket") WITH (autosummarize = on);--> statement-breakpoint
CREATE INDEX "stats_dim_1h_bucket" ON "stats_dim_1h" ("bucket");--> statement-breakpoint
CREATE INDEX "stats_dim_1d_bucket" ON "stats_dim_1d" ("bucket");
--> statement-breakpoint
-- Their rows are updated in place as samples are added: room on each page keeps the updates HOT
-- (db/partitions.ts PARTITION_STORAGE makes the new partitions so; these are the existing ones).
DO $$
DECLARE part regclass;
BEGIN
	FOR part IN SELECT i.inhrelid::regclass FROM pg_inherits i
		WHERE i.inhparent IN ('stats_device_5m'::regclass, 'stats_dim_5m'::regclass,
			'stats_device_1h'::regclass, 'stats_dim_1h'::regclass)
	LOOP
		EXECUTE format('ALTER TABLE %s SET (fillfactor = 70)', part);
	END LOOP;
END
$$;
