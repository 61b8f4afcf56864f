CREATE TABLE "device_commands" (
	"id" text PRIMARY KEY NOT NULL,
	"sn" text NOT NULL,
	"project_id" bigint,
	"name" text NOT NULL,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text NOT NULL,
	"code" integer,
	"message" text,
	"data" jsonb,
	"account_id" integer,
	"account_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "device_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"sn" text NOT NULL,
	"project_id" bigint,
	"event_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"event" text NOT NULL,
	"level" text NOT NULL,
	"message" text NOT NULL,
	"data" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"sn" text PRIMARY KEY NOT NULL,
	"project_id" bigint,
	"name" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"model" text NOT NULL,
	"type" text NOT NULL,
	"mac" text,
	"firmware" text,
	"hardware" text,
	"ip" text,
	"capabilities" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"operation" text,
	"progress" smallint,
	"management_mode" smallint DEFAULT 1 NOT NULL,
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
	"desired_revision" integer DEFAULT 0 NOT NULL,
	"desired_config" jsonb,
	"config_status" text DEFAULT 'applied' NOT NULL,
	"config_code" integer,
	"first_seen_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"bound_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_commands" ADD CONSTRAINT "device_commands_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "devices" ADD CONSTRAINT "devices_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_commands_sn_idx" ON "device_commands" USING btree ("sn","created_at");--> statement-breakpoint
CREATE INDEX "device_commands_open_idx" ON "device_commands" USING btree ("expires_at") WHERE "device_commands"."state" = 'sent';--> statement-breakpoint
CREATE UNIQUE INDEX "device_events_uq" ON "device_events" USING btree ("sn","event_id");--> statement-breakpoint
CREATE INDEX "device_events_project_idx" ON "device_events" USING btree ("project_id","at");--> statement-breakpoint
CREATE INDEX "devices_project_idx" ON "devices" USING btree ("project_id","type");--> statement-breakpoint
CREATE INDEX "devices_mac_idx" ON "devices" USING btree ("mac");