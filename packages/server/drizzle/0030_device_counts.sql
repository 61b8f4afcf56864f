-- Kept device counts per project and type (docs/decisions/0069-telemetry-statements-and-kept-device-counts.md).
--
-- The Status summary answers, per device type of a project, how many devices are online, how many
-- offline (status 0 or 9) and how many clients the online ones report. Counted from devices ⋈
-- device_state it was linear in the project's devices (~90 ms at 100,000). As for the online
-- clients (0015, decision 0044): every statement that changes what a device contributes appends one
-- row per project and type with the difference, insert-only, so concurrent writers never wait on
-- each other; the clients upkeep job folds the rows into one per project and type, recounted. The
-- count is the sum of a project's rows.
CREATE TABLE "device_count_deltas" (
	"project_id" bigint NOT NULL,
	"type" text NOT NULL,
	"online" integer NOT NULL,
	"offline" integer NOT NULL,
	"clients" bigint NOT NULL
);--> statement-breakpoint
CREATE INDEX "device_count_deltas_project_idx" ON "device_count_deltas" ("project_id");--> statement-breakpoint
INSERT INTO "device_count_deltas" ("project_id", "type", "online", "offline", "clients")
	SELECT d."project_id", d."type",
		count(*) FILTER (WHERE NOT (s."status" = ANY (ARRAY[0, 9])))::int,
		count(*) FILTER (WHERE s."status" = ANY (ARRAY[0, 9]))::int,
		coalesce(sum(s."client_count") FILTER (WHERE NOT (s."status" = ANY (ARRAY[0, 9]))), 0)
	FROM "devices" d JOIN "device_state" s ON s."sn" = d."sn"
	WHERE d."project_id" IS NOT NULL GROUP BY 1, 2;--> statement-breakpoint
-- A state row's contribution: its device's project and type, online or offline, its clients if online.
-- New state rows (a device inserted: its state row comes from 0008's row trigger).
CREATE FUNCTION beacon_device_counts_state_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "device_count_deltas" ("project_id", "type", "online", "offline", "clients")
		SELECT d."project_id", d."type",
			count(*) FILTER (WHERE NOT (n."status" = ANY (ARRAY[0, 9])))::int,
			count(*) FILTER (WHERE n."status" = ANY (ARRAY[0, 9]))::int,
			coalesce(sum(n."client_count") FILTER (WHERE NOT (n."status" = ANY (ARRAY[0, 9]))), 0)
		FROM added_state n JOIN "devices" d ON d."sn" = n."sn"
		WHERE d."project_id" IS NOT NULL GROUP BY 1, 2;
	RETURN NULL;
END
$$;--> statement-breakpoint
-- State rows whose status or client count changed (telemetry, hello, state, last will): the new
-- contribution minus the old. Rows that changed neither (most telemetry) add nothing.
CREATE FUNCTION beacon_device_counts_state_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "device_count_deltas" ("project_id", "type", "online", "offline", "clients")
		SELECT d."project_id", d."type",
			(count(*) FILTER (WHERE NOT (n."status" = ANY (ARRAY[0, 9])))
			 - count(*) FILTER (WHERE NOT (o."status" = ANY (ARRAY[0, 9]))))::int,
			(count(*) FILTER (WHERE n."status" = ANY (ARRAY[0, 9]))
			 - count(*) FILTER (WHERE o."status" = ANY (ARRAY[0, 9])))::int,
			coalesce(sum(n."client_count") FILTER (WHERE NOT (n."status" = ANY (ARRAY[0, 9]))), 0)
			 - coalesce(sum(o."client_count") FILTER (WHERE NOT (o."status" = ANY (ARRAY[0, 9]))), 0)
		FROM changed_new n JOIN changed_old o ON o."sn" = n."sn" JOIN "devices" d ON d."sn" = n."sn"
		WHERE d."project_id" IS NOT NULL
		  AND (n."status" IS DISTINCT FROM o."status" OR n."client_count" IS DISTINCT FROM o."client_count")
		GROUP BY 1, 2
		HAVING count(*) FILTER (WHERE NOT (n."status" = ANY (ARRAY[0, 9])))
			 <> count(*) FILTER (WHERE NOT (o."status" = ANY (ARRAY[0, 9])))
		    OR coalesce(sum(n."client_count") FILTER (WHERE NOT (n."status" = ANY (ARRAY[0, 9]))), 0)
			 <> coalesce(sum(o."client_count") FILTER (WHERE NOT (o."status" = ANY (ARRAY[0, 9]))), 0);
	RETURN NULL;
END
$$;--> statement-breakpoint
-- State rows deleted while their device stays (a device deleted takes its contribution away in the
-- trigger below, before its state row goes: then no devices row joins here).
CREATE FUNCTION beacon_device_counts_state_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "device_count_deltas" ("project_id", "type", "online", "offline", "clients")
		SELECT d."project_id", d."type",
			-(count(*) FILTER (WHERE NOT (o."status" = ANY (ARRAY[0, 9]))))::int,
			-(count(*) FILTER (WHERE o."status" = ANY (ARRAY[0, 9])))::int,
			-coalesce(sum(o."client_count") FILTER (WHERE NOT (o."status" = ANY (ARRAY[0, 9]))), 0)
		FROM removed_state o JOIN "devices" d ON d."sn" = o."sn"
		WHERE d."project_id" IS NOT NULL GROUP BY 1, 2;
	RETURN NULL;
END
$$;--> statement-breakpoint
-- Devices that moved project or changed type (claim, unbind, a project deleted, a first hello):
-- the old place loses what the state row contributes, the new one gains it.
CREATE FUNCTION beacon_device_counts_device_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "device_count_deltas" ("project_id", "type", "online", "offline", "clients")
		SELECT project_id, type, sum(online)::int, sum(offline)::int, sum(clients) FROM (
			SELECT o."project_id", o."type", -1 AS sign, s."status", s."client_count"
				FROM moved_old o JOIN moved_new n ON n."sn" = o."sn" JOIN "device_state" s ON s."sn" = o."sn"
				WHERE o."project_id" IS NOT NULL
				  AND (o."project_id" IS DISTINCT FROM n."project_id" OR o."type" IS DISTINCT FROM n."type")
			UNION ALL
			SELECT n."project_id", n."type", 1, s."status", s."client_count"
				FROM moved_new n JOIN moved_old o ON o."sn" = n."sn" JOIN "device_state" s ON s."sn" = n."sn"
				WHERE n."project_id" IS NOT NULL
				  AND (o."project_id" IS DISTINCT FROM n."project_id" OR o."type" IS DISTINCT FROM n."type")
		) c, LATERAL (SELECT
			CASE WHEN NOT (c."status" = ANY (ARRAY[0, 9])) THEN c.sign ELSE 0 END AS online,
			CASE WHEN c."status" = ANY (ARRAY[0, 9]) THEN c.sign ELSE 0 END AS offline,
			CASE WHEN NOT (c."status" = ANY (ARRAY[0, 9])) THEN c.sign * c."client_count" ELSE 0 END AS clients) v
		GROUP BY 1, 2;
	RETURN NULL;
END
$$;--> statement-breakpoint
-- A device deleted: its contribution goes while its state row is still there (the cascade deletes
-- it after this row trigger).
CREATE FUNCTION beacon_device_counts_device_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF OLD."project_id" IS NOT NULL THEN
		INSERT INTO "device_count_deltas" ("project_id", "type", "online", "offline", "clients")
			SELECT OLD."project_id", OLD."type",
				CASE WHEN NOT (s."status" = ANY (ARRAY[0, 9])) THEN -1 ELSE 0 END,
				CASE WHEN s."status" = ANY (ARRAY[0, 9]) THEN -1 ELSE 0 END,
				CASE WHEN NOT (s."status" = ANY (ARRAY[0, 9])) THEN -s."client_count" ELSE 0 END
			FROM "device_state" s WHERE s."sn" = OLD."sn";
	END IF;
	RETURN OLD;
END
$$;--> statement-breakpoint
CREATE TRIGGER "device_state_counts_added" AFTER INSERT ON "device_state" REFERENCING NEW TABLE AS added_state
	FOR EACH STATEMENT EXECUTE FUNCTION beacon_device_counts_state_added();--> statement-breakpoint
CREATE TRIGGER "device_state_counts_changed" AFTER UPDATE ON "device_state"
	REFERENCING OLD TABLE AS changed_old NEW TABLE AS changed_new
	FOR EACH STATEMENT EXECUTE FUNCTION beacon_device_counts_state_changed();--> statement-breakpoint
CREATE TRIGGER "device_state_counts_removed" AFTER DELETE ON "device_state" REFERENCING OLD TABLE AS removed_state
	FOR EACH STATEMENT EXECUTE FUNCTION beacon_device_counts_state_removed();--> statement-breakpoint
CREATE TRIGGER "devices_counts_moved" AFTER UPDATE ON "devices"
	REFERENCING OLD TABLE AS moved_old NEW TABLE AS moved_new
	FOR EACH STATEMENT EXECUTE FUNCTION beacon_device_counts_device_moved();--> statement-breakpoint
CREATE TRIGGER "devices_counts_deleted" BEFORE DELETE ON "devices"
	FOR EACH ROW EXECUTE FUNCTION beacon_device_counts_device_deleted();
