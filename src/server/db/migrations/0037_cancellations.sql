-- Keeping members (decision 052): the offer an operator attaches to each cancellation reason, every
-- cancellation a member went through with its reason and outcome (declined, discount, pause), and
-- the sandbox provider's pause window and cancellation details (Stripe's resumes_at and
-- cancellation_details).
CREATE TABLE "retention_offers" (
	"reason" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"percent_off" integer,
	"periods" integer,
	"pause_months" integer,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "retention_offers_reason" CHECK ("reason" IN ('too_expensive', 'not_trading', 'missing_features', 'technical_problems', 'switching', 'other')),
	CONSTRAINT "retention_offers_kind" CHECK (("kind" = 'discount' AND "percent_off" BETWEEN 5 AND 100 AND "periods" BETWEEN 1 AND 12) OR ("kind" = 'pause' AND "pause_months" BETWEEN 1 AND 3))
);
--> statement-breakpoint
-- The shop's first offers: a pause for members who are not trading now, half off for those who find it too expensive.
INSERT INTO "retention_offers" ("reason", "kind", "pause_months") VALUES ('not_trading', 'pause', 3);
--> statement-breakpoint
INSERT INTO "retention_offers" ("reason", "kind", "percent_off", "periods") VALUES ('too_expensive', 'discount', 50, 2);
--> statement-breakpoint
CREATE TABLE "cancellations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
	"provider" text NOT NULL,
	"provider_subscription_id" text NOT NULL,
	"plan_type" text NOT NULL,
	"reason" text NOT NULL,
	"reason_text" text,
	"offer" jsonb,
	"outcome" text NOT NULL,
	"pause_months" integer,
	"pause_access_until" timestamp with time zone,
	"pause_resumes_at" timestamp with time zone,
	"state" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cancellations_reason" CHECK ("reason" IN ('too_expensive', 'not_trading', 'missing_features', 'technical_problems', 'switching', 'other')),
	CONSTRAINT "cancellations_reason_text" CHECK (char_length("reason_text") <= 500),
	CONSTRAINT "cancellations_outcome" CHECK ("outcome" IN ('declined', 'discount', 'pause')),
	CONSTRAINT "cancellations_state" CHECK ("state" IN ('pending', 'done')),
	CONSTRAINT "cancellations_pause" CHECK (("outcome" = 'pause') = ("pause_resumes_at" IS NOT NULL))
);
--> statement-breakpoint
-- A retention discount once per member, whatever the plan.
CREATE UNIQUE INDEX "cancellations_discount_once" ON "cancellations" ("user_id") WHERE "outcome" = 'discount';
--> statement-breakpoint
-- One choice in flight per subscription: a double click or a second tab waits for the first.
CREATE UNIQUE INDEX "cancellations_pending_one" ON "cancellations" ("provider_subscription_id") WHERE "state" = 'pending';
--> statement-breakpoint
CREATE INDEX "cancellations_user_idx" ON "cancellations" ("user_id", "created_at");
--> statement-breakpoint
CREATE INDEX "cancellations_created_idx" ON "cancellations" ("created_at");
--> statement-breakpoint
CREATE INDEX "cancellations_pause_idx" ON "cancellations" ("pause_resumes_at") WHERE "outcome" = 'pause';
--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "pause_access_until" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "pause_resumes_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "cancellation_details" jsonb;
--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;
