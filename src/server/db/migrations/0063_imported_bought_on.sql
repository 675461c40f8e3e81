-- Where an imported subscription was bought (issue 43): an import has no checkout of this shop,
-- whose page names the price list, and no paid order here until its first renewal, whose currency
-- the view reads. The import records the list its Stripe Price names and the currency Stripe bills
-- it in, so the member's plan-change card shows their own list. Null on every other row.
ALTER TABLE "user_subscriptions" ADD COLUMN IF NOT EXISTS "bought_on_list" text;
--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD COLUMN IF NOT EXISTS "bought_on_currency" text;
