-- Going live (issue 12). A Stripe customer belongs to one mode: ids made with a test key are
-- unknown to the live key. NULL: written before the mode was recorded (tried, repaired if stale).
ALTER TABLE "user_subscriptions" ADD COLUMN "provider_livemode" boolean;
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "provider_livemode" boolean;
--> statement-breakpoint
-- TradingView access the shop itself gave, per script and username (lowercase): the reconciler
-- changes and removes only these, never access the vendor gave by hand.
CREATE TABLE "tradingview_shop_access" (
  "script_id" text NOT NULL,
  "username" text NOT NULL,
  "expires_at" timestamp with time zone,
  "granted_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "tradingview_shop_access_pk" PRIMARY KEY ("script_id", "username")
);
