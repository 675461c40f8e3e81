-- The import of an existing business (`npm run import -- stripe|tradingview`): one row per run,
-- dry or real, with its report (what it counted and listed, and the error that stopped it), and
-- one row per member the imports brought in or whose TradingView access they adopted.
CREATE TABLE "import_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" text NOT NULL,
	"dry_run" boolean NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"report" jsonb NOT NULL,
	"error" text
);
--> statement-breakpoint
CREATE INDEX "import_runs_started_idx" ON "import_runs" ("started_at");
--> statement-breakpoint
CREATE TABLE "imported_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE cascade,
	"source" text NOT NULL,
	"source_ref" text NOT NULL,
	"detail" text,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "imported_members_source_ref_uq" ON "imported_members" ("source", "source_ref");
--> statement-breakpoint
CREATE INDEX "imported_members_imported_idx" ON "imported_members" ("imported_at");
