-- Issue 11, holes 3, 7 and 8: one paid subscription per buyer, reversals that reach their order,
-- and serialised plan changes.
-- A paid checkout judged a duplicate of the buyer's active subscription: refund_pending until the
-- provider has refunded it (and cancelled its subscription), then refunded. Operators list these.
ALTER TABLE "checkout_sessions" ADD COLUMN "duplicate_status" text;--> statement-breakpoint
-- When our records first saw the session paid: checkouts started before then are the ones to expire.
ALTER TABLE "checkout_sessions" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "checkout_sessions_duplicate_idx" ON "checkout_sessions" USING btree ("duplicate_status") WHERE "duplicate_status" IS NOT NULL;--> statement-breakpoint
-- Charges name the payment intent, subscription orders the invoice: keep both, resolve either.
ALTER TABLE "orders" ADD COLUMN "provider_payment_intent_id" text;--> statement-breakpoint
CREATE INDEX "orders_provider_payment_intent_idx" ON "orders" USING btree ("provider_payment_intent_id");--> statement-breakpoint
-- The subscription an order paid for, so a reversed renewal reaches the subscription's row.
ALTER TABLE "orders" ADD COLUMN "provider_subscription_id" text;--> statement-breakpoint
-- Why a row gives no access whatever the provider's snapshot says: duplicate, replaced (by a
-- lifetime purchase), refunded, disputed. A won dispute clears it.
ALTER TABLE "user_subscriptions" ADD COLUMN "revoked_reason" text;--> statement-breakpoint
-- A plan change in flight (target plan and start), so concurrent changes of one subscription queue.
ALTER TABLE "user_subscriptions" ADD COLUMN "plan_change_target" text;--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD COLUMN "plan_change_started_at" timestamp with time zone;--> statement-breakpoint
-- The sandbox's charges are its invoices: a payment intent id and what was refunded or disputed.
ALTER TABLE "sandbox_invoices" ADD COLUMN "payment_intent_id" text;--> statement-breakpoint
ALTER TABLE "sandbox_invoices" ADD COLUMN "amount_refunded" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_invoices" ADD COLUMN "dispute_status" text;--> statement-breakpoint
-- The plan an invoice's price is for (a renewal order takes its plan from the invoice, not the row).
ALTER TABLE "sandbox_invoices" ADD COLUMN "plan_type" text;
