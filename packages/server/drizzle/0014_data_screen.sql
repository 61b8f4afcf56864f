-- The data screen's settings per project (docs/decisions/0041): title (1-18 characters), subtitle
-- (0-30) and up to 5 ISO 3166-1 alpha-2 country codes for its map. No row = the defaults.
CREATE TABLE "data_screens" (
	"project_id" bigint PRIMARY KEY NOT NULL REFERENCES "projects"("id") ON DELETE CASCADE,
	"title" text NOT NULL,
	"subtitle" text DEFAULT '' NOT NULL,
	"countries" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_screens_countries_max" CHECK (cardinality("countries") <= 5)
);
