-- Free trials, one per person: a record of every trial (keyed by the provider's subscription) with
-- the keys that identify its person (e-mail, card fingerprint, TradingView username, stored
-- lowercased) and how it ended. The sandbox provider keeps a checkout's trial length and a
-- subscription's trial end and reminder, as Stripe does.
CREATE TABLE "trials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"provider_subscription_id" text NOT NULL,
	"checkout_session_id" text,
	"email" text NOT NULL,
	"card_fingerprint" text,
	"tradingview_username" text,
	"plan_type" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"days" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"outcome" text DEFAULT 'running' NOT NULL,
	"repeat_reason" text,
	"repeat_of_trial_id" uuid,
	"outcome_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "trials_subscription_uq" ON "trials" ("provider_subscription_id");
--> statement-breakpoint
CREATE INDEX "trials_email_idx" ON "trials" ("email");
--> statement-breakpoint
CREATE INDEX "trials_card_idx" ON "trials" ("card_fingerprint") WHERE "card_fingerprint" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "trials_username_idx" ON "trials" ("tradingview_username") WHERE "tradingview_username" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "trials_started_idx" ON "trials" ("started_at");
--> statement-breakpoint
ALTER TABLE "sandbox_checkout_sessions" ADD COLUMN "trial_period_days" integer;
--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "trial_end" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "trial_reminded_at" timestamp with time zone;
