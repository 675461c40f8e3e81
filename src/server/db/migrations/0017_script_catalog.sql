-- The script catalog: the vendor's invite-only scripts (read from TradingView, or named in
-- TRADINGVIEW_SCRIPT_IDS) and the plans that grant each. A grant row names the scripts its member's
-- plans grant; rows written before bundles have none (null: the TRADINGVIEW_SCRIPT_IDS bundle).
CREATE TABLE "tradingview_scripts" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"plan_types" text[] DEFAULT '{}' NOT NULL,
	"synced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tradingview_grants" ADD COLUMN "desired_scripts" text[];
