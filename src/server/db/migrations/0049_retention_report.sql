-- The console's retention numbers (decision 057): the grouped counts behind the Retention page,
-- recounted hourly and kept as one JSON document, so the page reads one row however
-- many members and orders there are.
CREATE TABLE IF NOT EXISTS "retention_report_snapshots" (
	"id" smallint PRIMARY KEY DEFAULT 1 CHECK ("id" = 1),
	"snapshot" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
