-- The Wi-Fi map's floor plans (src/wifi-map/, docs/decisions/0052-0053): one row per floor of a
-- project, with its image (PNG or JPEG, at most 10 MB, checked by its header before the insert) and
-- its SHA-256 `checksum`; EXTERNAL storage keeps the image uncompressed out of line, so it is read in
-- slices (substring) and streamed. The scale line, walls and placed APs are in image pixels.
CREATE TABLE IF NOT EXISTS "floor_plans" (
  "id" serial PRIMARY KEY,
  "project_id" bigint NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
  "name" text NOT NULL,
  "mime" text NOT NULL CHECK ("mime" IN ('image/png', 'image/jpeg')),
  "width" integer NOT NULL CHECK ("width" > 0),
  "height" integer NOT NULL CHECK ("height" > 0),
  "size" integer NOT NULL CHECK ("size" > 0 AND "size" <= 10485760),
  "checksum" text NOT NULL,
  "image" bytea NOT NULL,
  "scale" jsonb,
  "walls" jsonb NOT NULL DEFAULT '[]'::jsonb,
  "aps" jsonb NOT NULL DEFAULT '[]'::jsonb,
  "created_at" timestamptz NOT NULL,
  "updated_at" timestamptz NOT NULL,
  CONSTRAINT "floor_plans_size_matches" CHECK (octet_length("image") = "size")
);
--> statement-breakpoint
ALTER TABLE "floor_plans" ALTER COLUMN "image" SET STORAGE EXTERNAL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "floor_plans_project_idx" ON "floor_plans" ("project_id", "id");
