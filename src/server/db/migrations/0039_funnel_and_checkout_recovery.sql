-- The funnel and checkout recovery. Landing visits are counted per UTC day and source (page =
-- price list, UTM, affiliate code) as counters an instance adds its in-memory tally to; no address
-- is stored, only how many. A checkout's UTM source is kept beside it (its price list, promotion
-- code and affiliate are on the rows billing and affiliates write). One recovery mail per e-mail
-- per week is recorded with the hash of its link's token; an address that said "no more" is kept.
CREATE TABLE "funnel_visits" (
	"day" date NOT NULL,
	"page" text NOT NULL,
	"utm_source" text DEFAULT '' NOT NULL,
	"utm_medium" text DEFAULT '' NOT NULL,
	"utm_campaign" text DEFAULT '' NOT NULL,
	"affiliate_code" text DEFAULT '' NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"visitors" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "funnel_visits_pk" PRIMARY KEY ("day", "page", "utm_source", "utm_medium", "utm_campaign", "affiliate_code")
);
--> statement-breakpoint
CREATE TABLE "funnel_checkout_sources" (
	"checkout_session_id" text PRIMARY KEY NOT NULL,
	"utm_source" text DEFAULT '' NOT NULL,
	"utm_medium" text DEFAULT '' NOT NULL,
	"utm_campaign" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "checkout_sessions_created_idx" ON "checkout_sessions" ("created_at");
--> statement-breakpoint
CREATE INDEX "checkout_sessions_completed_idx" ON "checkout_sessions" ("completed_at") WHERE "completed_at" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "checkout_recoveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"checkout_session_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_recoveries_token_uq" ON "checkout_recoveries" ("token_hash");
--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_recoveries_session_uq" ON "checkout_recoveries" ("checkout_session_id");
--> statement-breakpoint
CREATE INDEX "checkout_recoveries_email_idx" ON "checkout_recoveries" ("email", "sent_at");
--> statement-breakpoint
CREATE TABLE "checkout_recovery_optouts" (
	"email" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- the sandbox expires the sessions left open past their lifetime, as Stripe does
CREATE INDEX "sandbox_checkout_sessions_open_idx" ON "sandbox_checkout_sessions" ("created_at") WHERE "status" = 'open';
