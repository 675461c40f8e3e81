-- Operator console (issue 13). One row per operator alert: the check on every instance flips
-- `active` with a conditional update, so only one instance writes the mails of a transition.
CREATE TABLE "operator_alerts" (
	"key" text PRIMARY KEY NOT NULL,
	"active" boolean DEFAULT false NOT NULL,
	"since" timestamp with time zone,
	"detail" text,
	"checked_at" timestamp with time zone,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
-- Provider events fulfilment could not apply (kept whole so an operator can replay them) and
-- webhook deliveries refused for a bad signature (the alert counts them).
CREATE TABLE "payment_event_failures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"event_id" text,
	"source" text,
	"type" text,
	"event" jsonb,
	"error" text NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"first_failed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_failed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
-- When a grant's current run of failures began: the "failing for 15 minutes" alert and the queue's age.
ALTER TABLE "tradingview_grants" ADD COLUMN "failing_since" timestamp with time zone;
--> statement-breakpoint
CREATE UNIQUE INDEX "payment_event_failures_event_uq" ON "payment_event_failures" USING btree ("event_id");
--> statement-breakpoint
CREATE INDEX "payment_event_failures_recent_idx" ON "payment_event_failures" USING btree ("kind","last_failed_at");
