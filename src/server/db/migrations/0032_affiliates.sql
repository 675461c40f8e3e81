-- Affiliates: people who sell the shop for a commission. The program's terms (one row, JSON the
-- shared rules validate), each affiliate (an account, a code, a payout address), the clicks on
-- their links (one per browser and day), the checkouts their link or bound promotion code started,
-- the buyers attributed to them (by e-mail, so renewals and converting trials follow), one
-- commission per attributed order (pending until the hold ends, approved, paid, reversed on a
-- refund or lost dispute, or refused with the reason), and the payouts made.
CREATE TABLE "affiliate_program" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"terms" jsonb NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "affiliate_program_one_row" CHECK ("id" = 1)
);
--> statement-breakpoint
CREATE TABLE "affiliates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
	"email" text NOT NULL,
	"code" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"suspended_reason" text,
	"payout_email" text,
	"promotion_code" text,
	"joined_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "affiliates_code_upper" CHECK ("code" = upper("code")),
	CONSTRAINT "affiliates_status" CHECK ("status" IN ('active', 'suspended'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "affiliates_user_uq" ON "affiliates" ("user_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "affiliates_code_uq" ON "affiliates" ("code");
--> statement-breakpoint
CREATE UNIQUE INDEX "affiliates_promotion_code_uq" ON "affiliates" ("promotion_code") WHERE "promotion_code" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "affiliate_clicks" (
	"affiliate_id" uuid NOT NULL REFERENCES "affiliates"("id") ON DELETE CASCADE,
	"visitor" text NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "affiliate_clicks_pk" PRIMARY KEY ("affiliate_id", "day", "visitor")
);
--> statement-breakpoint
CREATE TABLE "affiliate_referrals" (
	"checkout_session_id" text PRIMARY KEY NOT NULL,
	"affiliate_id" uuid NOT NULL REFERENCES "affiliates"("id") ON DELETE CASCADE,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "affiliate_referrals_affiliate_idx" ON "affiliate_referrals" ("affiliate_id");
--> statement-breakpoint
CREATE TABLE "affiliate_attributions" (
	"email" text PRIMARY KEY NOT NULL,
	"affiliate_id" uuid NOT NULL REFERENCES "affiliates"("id") ON DELETE CASCADE,
	"source" text NOT NULL,
	"trial" boolean DEFAULT false NOT NULL,
	"first_paid_at" timestamp with time zone,
	"attributed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "affiliate_attributions_affiliate_idx" ON "affiliate_attributions" ("affiliate_id");
--> statement-breakpoint
CREATE TABLE "affiliate_payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"affiliate_id" uuid NOT NULL REFERENCES "affiliates"("id") ON DELETE CASCADE,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"payout_email" text NOT NULL,
	"paid_by" text NOT NULL,
	"paid_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "affiliate_payouts_affiliate_idx" ON "affiliate_payouts" ("affiliate_id");
--> statement-breakpoint
CREATE TABLE "affiliate_commissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"affiliate_id" uuid NOT NULL REFERENCES "affiliates"("id") ON DELETE CASCADE,
	"order_id" uuid NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
	"buyer_email" text,
	"plan_type" text NOT NULL,
	"currency" text NOT NULL,
	"base_amount" integer NOT NULL,
	"amount" integer NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"approvable_at" timestamp with time zone,
	"approved_at" timestamp with time zone,
	"payout_id" uuid REFERENCES "affiliate_payouts"("id"),
	"reversed_at" timestamp with time zone,
	"clawback_payout_id" uuid REFERENCES "affiliate_payouts"("id"),
	"mailed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "affiliate_commissions_status" CHECK ("status" IN ('pending', 'approved', 'paid', 'reversed', 'refused')),
	CONSTRAINT "affiliate_commissions_amount" CHECK ("amount" >= 0 AND "base_amount" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "affiliate_commissions_order_uq" ON "affiliate_commissions" ("order_id");
--> statement-breakpoint
CREATE INDEX "affiliate_commissions_affiliate_idx" ON "affiliate_commissions" ("affiliate_id", "status");
--> statement-breakpoint
CREATE INDEX "affiliate_commissions_open_idx" ON "affiliate_commissions" ("status") WHERE "status" IN ('pending', 'approved', 'paid', 'reversed');
