-- Promotion codes: the operator's codes (upper-case, unique whatever the case) with their terms and
-- the provider's coupon and promotion code that mirror them; the code and the discount each
-- checkout and order got (orders keep `amount` = what was charged). The sandbox provider keeps its
-- own coupons and promotion codes, and the discount of its sessions, subscriptions and invoices,
-- as Stripe does.
CREATE TABLE "promotion_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"percent_off" integer,
	"amount_off" integer,
	"currency" text,
	"duration" text NOT NULL,
	"duration_in_months" integer,
	"plan_types" text[],
	"first_time_only" boolean DEFAULT false NOT NULL,
	"max_redemptions" integer,
	"expires_at" timestamp with time zone,
	"active" boolean DEFAULT true NOT NULL,
	"provider" text,
	"provider_livemode" boolean,
	"provider_coupon_id" text,
	"provider_promotion_code_id" text,
	"provider_error" text,
	"provider_synced_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promotion_codes_code_upper" CHECK ("code" = upper("code")),
	CONSTRAINT "promotion_codes_one_discount" CHECK (("percent_off" IS NULL) <> ("amount_off" IS NULL)),
	CONSTRAINT "promotion_codes_percent_range" CHECK ("percent_off" IS NULL OR "percent_off" BETWEEN 1 AND 100),
	CONSTRAINT "promotion_codes_amount_positive" CHECK ("amount_off" IS NULL OR ("amount_off" > 0 AND "currency" IS NOT NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "promotion_codes_code_uq" ON "promotion_codes" (upper("code"));
--> statement-breakpoint
CREATE INDEX "promotion_codes_provider_code_idx" ON "promotion_codes" ("provider_promotion_code_id") WHERE "provider_promotion_code_id" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "promotion_code" text;
--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "amount_discount" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX "checkout_sessions_promotion_idx" ON "checkout_sessions" ("promotion_code") WHERE "promotion_code" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "promotion_code" text;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "amount_discount" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE INDEX "orders_promotion_idx" ON "orders" ("promotion_code") WHERE "promotion_code" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "sandbox_coupons" (
	"id" text PRIMARY KEY NOT NULL,
	"percent_off" integer,
	"amount_off" integer,
	"currency" text,
	"duration" text NOT NULL,
	"duration_in_months" integer,
	"applies_to_plans" text[],
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_promotion_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"coupon_id" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"max_redemptions" integer,
	"expires_at" timestamp with time zone,
	"first_time_transaction" boolean DEFAULT false NOT NULL,
	"times_redeemed" integer DEFAULT 0 NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sandbox_promotion_codes_code_idx" ON "sandbox_promotion_codes" (upper("code"));
--> statement-breakpoint
ALTER TABLE "sandbox_checkout_sessions" ADD COLUMN "promotion_code_id" text;
--> statement-breakpoint
ALTER TABLE "sandbox_checkout_sessions" ADD COLUMN "amount_discount" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "sandbox_checkout_sessions" ADD COLUMN "allow_promotion_codes" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "promotion_code_id" text;
--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "discount_start" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "sandbox_invoices" ADD COLUMN "amount_discount" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "sandbox_invoices" ADD COLUMN "promotion_code_id" text;
