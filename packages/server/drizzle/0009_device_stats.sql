-- Device statistics as time series (docs/monitoring-storage.md, docs/decisions/0034). Raw samples
-- come from telemetry (one row per device per telemetry, dimension rows per port, radio and SSID);
-- a recurring job rolls them up to 5 minutes, 1 hour and 1 day. Every table but the daily ones is
-- partitioned by UTC day (db/partitions.ts); retention drops whole partitions.
CREATE TABLE "stats_device" (
	"at" timestamp with time zone NOT NULL,
	"project_id" bigint NOT NULL,
	"sn" text NOT NULL,
	"cpu" real NOT NULL,
	"memory" real NOT NULL,
	"clients" integer NOT NULL,
	"rx_bytes" bigint NOT NULL,
	"tx_bytes" bigint NOT NULL,
	"wan_rx_bytes" bigint,
	"wan_tx_bytes" bigint,
	"seconds" real NOT NULL
) PARTITION BY RANGE ("at");--> statement-breakpoint
CREATE INDEX "stats_device_sn_at" ON "stats_device" ("sn", "at");--> statement-breakpoint
CREATE INDEX "stats_device_at" ON "stats_device" ("at");--> statement-breakpoint
CREATE TABLE "stats_dim" (
	"at" timestamp with time zone NOT NULL,
	"project_id" bigint NOT NULL,
	"sn" text NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"clients" integer,
	"rx_bytes" bigint NOT NULL,
	"tx_bytes" bigint NOT NULL
) PARTITION BY RANGE ("at");--> statement-breakpoint
CREATE INDEX "stats_dim_sn_at" ON "stats_dim" ("sn", "at");--> statement-breakpoint
CREATE INDEX "stats_dim_at" ON "stats_dim" ("at");--> statement-breakpoint
CREATE TABLE "stats_device_5m" (
	"bucket" timestamp with time zone NOT NULL,
	"project_id" bigint NOT NULL,
	"sn" text NOT NULL,
	"samples" integer NOT NULL,
	"cpu_avg" real NOT NULL,
	"cpu_max" real NOT NULL,
	"memory_avg" real NOT NULL,
	"memory_max" real NOT NULL,
	"clients_avg" real NOT NULL,
	"clients_max" integer NOT NULL,
	"rx_bytes" bigint NOT NULL,
	"tx_bytes" bigint NOT NULL,
	"wan_rx_bytes" bigint,
	"wan_tx_bytes" bigint,
	PRIMARY KEY ("project_id", "sn", "bucket")
) PARTITION BY RANGE ("bucket");--> statement-breakpoint
CREATE INDEX "stats_device_5m_sn" ON "stats_device_5m" ("sn", "bucket");--> statement-breakpoint
CREATE TABLE "stats_device_1h" (LIKE "stats_device_5m" INCLUDING DEFAULTS, PRIMARY KEY ("project_id", "sn", "bucket")) PARTITION BY RANGE ("bucket");--> statement-breakpoint
CREATE INDEX "stats_device_1h_sn" ON "stats_device_1h" ("sn", "bucket");--> statement-breakpoint
CREATE TABLE "stats_device_1d" (LIKE "stats_device_5m" INCLUDING DEFAULTS, PRIMARY KEY ("project_id", "sn", "bucket"));--> statement-breakpoint
CREATE INDEX "stats_device_1d_sn" ON "stats_device_1d" ("sn", "bucket");--> statement-breakpoint
CREATE TABLE "stats_dim_5m" (
	"bucket" timestamp with time zone NOT NULL,
	"project_id" bigint NOT NULL,
	"sn" text NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"samples" integer NOT NULL,
	"clients_avg" real,
	"clients_max" integer,
	"rx_bytes" bigint NOT NULL,
	"tx_bytes" bigint NOT NULL,
	PRIMARY KEY ("project_id", "sn", "kind", "key", "bucket")
) PARTITION BY RANGE ("bucket");--> statement-breakpoint
CREATE INDEX "stats_dim_5m_sn" ON "stats_dim_5m" ("sn", "bucket");--> statement-breakpoint
CREATE TABLE "stats_dim_1h" (LIKE "stats_dim_5m" INCLUDING DEFAULTS, PRIMARY KEY ("project_id", "sn", "kind", "key", "bucket")) PARTITION BY RANGE ("bucket");--> statement-breakpoint
CREATE INDEX "stats_dim_1h_sn" ON "stats_dim_1h" ("sn", "bucket");--> statement-breakpoint
CREATE TABLE "stats_dim_1d" (LIKE "stats_dim_5m" INCLUDING DEFAULTS, PRIMARY KEY ("project_id", "sn", "kind", "key", "bucket"));--> statement-breakpoint
CREATE INDEX "stats_dim_1d_sn" ON "stats_dim_1d" ("sn", "bucket");--> statement-breakpoint
-- One row per project and bucket: what a project chart reads (a 30-day chart is 720 rows).
CREATE TABLE "stats_project_5m" (
	"bucket" timestamp with time zone NOT NULL,
	"project_id" bigint NOT NULL,
	"devices" integer NOT NULL,
	"cpu_avg" real NOT NULL,
	"memory_avg" real NOT NULL,
	"clients" real NOT NULL,
	"rx_bytes" bigint NOT NULL,
	"tx_bytes" bigint NOT NULL,
	"wan_rx_bytes" bigint,
	"wan_tx_bytes" bigint,
	PRIMARY KEY ("project_id", "bucket")
) PARTITION BY RANGE ("bucket");--> statement-breakpoint
CREATE TABLE "stats_project_1h" (LIKE "stats_project_5m" INCLUDING DEFAULTS, PRIMARY KEY ("project_id", "bucket")) PARTITION BY RANGE ("bucket");--> statement-breakpoint
CREATE TABLE "stats_project_1d" (LIKE "stats_project_5m" INCLUDING DEFAULTS, PRIMARY KEY ("project_id", "bucket"));--> statement-breakpoint
-- How far each rollup level is complete: buckets before `done_until` are final.
CREATE TABLE "stats_watermarks" (
	"level" text PRIMARY KEY NOT NULL,
	"done_until" timestamp with time zone NOT NULL
);
