-- Room on every page for the rows that telemetry rewrites (docs/decisions/0071): a client row and a
-- device's state row are rewritten every telemetry period. An update that finds room on its own page
-- and changes no indexed column is HOT: no index entry is written. With full pages (the default
-- fillfactor 100) about half of them were not, and each of those wrote an entry in every index of
-- online_clients (fourteen). Existing pages keep their rows; new and moved rows follow the setting.
ALTER TABLE online_clients SET (fillfactor = 50, autovacuum_vacuum_scale_factor = 0.05);
ALTER TABLE device_state SET (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.05);
