-- Old rows keep their meaning: a fixed offset in minutes east of GMT becomes the zone of that offset
-- (protocol/src/timezone.ts zoneForOffset; docs/decisions/0026).
CREATE FUNCTION beacon_zone_for_offset(minutes integer) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE
		WHEN minutes = 0 THEN 'Etc/GMT'
		WHEN minutes % 60 = 0 AND minutes BETWEEN -720 AND 840
			THEN 'Etc/GMT' || CASE WHEN minutes > 0 THEN '-' ELSE '+' END || (abs(minutes) / 60)::text
		WHEN minutes = -570 THEN 'Pacific/Marquesas'
		WHEN minutes = -210 THEN 'America/St_Johns'
		WHEN minutes = 210 THEN 'Asia/Tehran'
		WHEN minutes = 270 THEN 'Asia/Kabul'
		WHEN minutes = 330 THEN 'Asia/Kolkata'
		WHEN minutes = 345 THEN 'Asia/Kathmandu'
		WHEN minutes = 390 THEN 'Asia/Yangon'
		WHEN minutes = 525 THEN 'Australia/Eucla'
		WHEN minutes = 570 THEN 'Australia/Darwin'
		WHEN minutes = 630 THEN 'Australia/Lord_Howe'
		WHEN minutes = 765 THEN 'Pacific/Chatham'
		-- An offset no zone keeps (never offered by the old form): the nearest whole hour.
		WHEN round(minutes / 60.0) = 0 THEN 'Etc/GMT'
		ELSE 'Etc/GMT' || CASE WHEN round(minutes / 60.0) > 0 THEN '-' ELSE '+' END || abs(round(minutes / 60.0))::int::text
	END
$$;--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "time_zone" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "time_zone" SET DATA TYPE text USING beacon_zone_for_offset("time_zone");--> statement-breakpoint
ALTER TABLE "projects" ALTER COLUMN "time_zone" SET DEFAULT 'Asia/Shanghai';--> statement-breakpoint
UPDATE "projects" SET "time_zone" = 'Asia/Shanghai' WHERE "is_demo" AND "time_zone" = 'Etc/GMT-8';--> statement-breakpoint
ALTER TABLE "reboot_schedules" ALTER COLUMN "time_zone" SET DATA TYPE text USING beacon_zone_for_offset("time_zone");--> statement-breakpoint
DROP FUNCTION beacon_zone_for_offset(integer);--> statement-breakpoint
-- The final outcome of a command that the device accepted and then carries out (reboot, reset,
-- upgrade): a later fact than the reply, kept beside it (docs/decisions/0027).
ALTER TABLE "device_commands" ADD COLUMN "final_state" text;--> statement-breakpoint
ALTER TABLE "device_commands" ADD COLUMN "final_code" integer;--> statement-breakpoint
ALTER TABLE "device_commands" ADD COLUMN "final_message" text;--> statement-breakpoint
ALTER TABLE "device_commands" ADD COLUMN "final_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "device_commands_final_idx" ON "device_commands" USING btree ("sn") WHERE "device_commands"."final_state" = 'pending';
