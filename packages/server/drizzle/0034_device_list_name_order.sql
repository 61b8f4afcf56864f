-- The device list at 100,000 devices of one project (issue 16, bench/RESULTS.md): its default order,
-- the shown name (the device's own, else "model-SNtail") case-folded then the SN, had no index, so each
-- page sorted every device of the project (p50 ~1 s at 100,000). In the list's exact expression and
-- order, a page is an index scan that stops after the page. The page's total comes from the kept
-- counts (0030) when the list is filtered by type and online/offline at most (devices/repository.ts).
CREATE INDEX "devices_name_order_idx" ON "devices" ("project_id",
	lower(CASE WHEN "name" = '' THEN "model" || '-' || right("sn", 6) ELSE "name" END), "sn");
