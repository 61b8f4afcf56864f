-- What devices report moves out of the inventory row (docs/decisions/0031): one row per device,
-- created with the device by a trigger, removed with it.
CREATE TABLE "device_state" (
	"sn" text PRIMARY KEY NOT NULL,
	"firmware" text,
	"hardware" text,
	"ip" text,
	"status" smallint DEFAULT 0 NOT NULL,
	"operation" text,
	"progress" smallint,
	"device_mode" smallint,
	"mesh_role" text,
	"cpe_mode" text,
	"boot_id" text,
	"uptime" integer,
	"uplink_sn" text,
	"uplink_port" integer,
	"ports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"port_count" smallint DEFAULT 0 NOT NULL,
	"client_count" integer DEFAULT 0 NOT NULL,
	"dhcp_client_count" integer DEFAULT 0 NOT NULL,
	"poe_total" real,
	"poe_used" real,
	"poe_remaining" real,
	"cpu" real,
	"memory" real,
	"telemetry" jsonb,
	"telemetry_at" timestamp with time zone,
	"remote" jsonb,
	"reported_revision" integer DEFAULT 0 NOT NULL,
	"reported_hash" text,
	"last_seen_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "device_state" ADD CONSTRAINT "device_state_sn_devices_sn_fk" FOREIGN KEY ("sn") REFERENCES "public"."devices"("sn") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "device_state" ("sn", "firmware", "hardware", "ip", "status", "operation", "progress", "device_mode", "mesh_role", "cpe_mode", "boot_id", "uptime", "uplink_sn", "uplink_port", "ports", "port_count", "client_count", "dhcp_client_count", "poe_total", "poe_used", "poe_remaining", "cpu", "memory", "telemetry", "telemetry_at", "remote", "reported_revision", "reported_hash", "last_seen_at")
	SELECT "sn", "firmware", "hardware", "ip", "status", "operation", "progress", "device_mode", "mesh_role", "cpe_mode", "boot_id", "uptime", "uplink_sn", "uplink_port", "ports", "port_count", "client_count", "dhcp_client_count", "poe_total", "poe_used", "poe_remaining", "cpu", "memory", "telemetry", "telemetry_at", "remote", "reported_revision", "reported_hash", "last_seen_at" FROM "devices";--> statement-breakpoint
-- Every device has its state row, whoever inserts the device (the API, a first hello, the demo,
-- a test): readers join it without an outer join.
CREATE FUNCTION beacon_device_state_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "device_state" ("sn") VALUES (NEW."sn") ON CONFLICT DO NOTHING;
	RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "devices_state_row" AFTER INSERT ON "devices" FOR EACH ROW EXECUTE FUNCTION beacon_device_state_row();--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "firmware";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "hardware";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "ip";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "status";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "operation";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "progress";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "device_mode";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "mesh_role";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "cpe_mode";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "boot_id";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "uptime";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "uplink_sn";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "uplink_port";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "ports";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "port_count";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "client_count";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "dhcp_client_count";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "poe_total";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "poe_used";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "poe_remaining";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "cpu";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "memory";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "telemetry";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "telemetry_at";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "remote";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "reported_revision";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "reported_hash";--> statement-breakpoint
ALTER TABLE "devices" DROP COLUMN "last_seen_at";
