-- What each subscription's period costs, kept on its row for the console's MRR (decision 034): the
-- newest paid order of the subscription (its own order, or any order of its provider
-- subscription), what its promotion code took off, and when the subscription first had that code.
-- Triggers keep the columns exact whoever writes orders or subscriptions (the entitlements core,
-- imports, the tests' and the bench's direct inserts), in the same transaction as the write.
ALTER TABLE "user_subscriptions" ADD COLUMN IF NOT EXISTS "price_amount" integer;
--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD COLUMN IF NOT EXISTS "price_currency" text;
--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD COLUMN IF NOT EXISTS "price_discount" integer;
--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD COLUMN IF NOT EXISTS "price_promotion_code" text;
--> statement-breakpoint
ALTER TABLE "user_subscriptions" ADD COLUMN IF NOT EXISTS "price_promotion_since" timestamp with time zone;
--> statement-breakpoint
-- the orders trigger finds the rows an order is the own order of
CREATE INDEX IF NOT EXISTS "user_subscriptions_order_idx" ON "user_subscriptions" ("order_id");
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "user_subscriptions_price"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- no paid order: every column null (the console then values the row at its plan's list price)
  SELECT o.amount, o.currency, o.amount_discount, o.promotion_code,
         (SELECT min(first.created_at) FROM orders first WHERE first.promotion_code = o.promotion_code
            AND (first.id = NEW.order_id OR first.provider_subscription_id = NEW.provider_subscription_id))
    INTO NEW.price_amount, NEW.price_currency, NEW.price_discount, NEW.price_promotion_code, NEW.price_promotion_since
    FROM orders o
    WHERE o.status = 'paid' AND (o.id = NEW.order_id OR (NEW.provider_subscription_id IS NOT NULL AND o.provider_subscription_id = NEW.provider_subscription_id))
    ORDER BY o.created_at DESC LIMIT 1;
  RETURN NEW;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "user_subscriptions_price" ON "user_subscriptions";
--> statement-breakpoint
CREATE TRIGGER "user_subscriptions_price" BEFORE INSERT OR UPDATE OF "order_id", "provider_subscription_id" ON "user_subscriptions"
  FOR EACH ROW EXECUTE FUNCTION "user_subscriptions_price"();
--> statement-breakpoint
-- An order written, changed (refunded, disputed, reinstated) or deleted: its subscriptions' rows
-- are touched on order_id, which runs the trigger above, so the price is worked out in one place.
CREATE OR REPLACE FUNCTION "orders_subscription_price"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE user_subscriptions SET order_id = order_id WHERE order_id = OLD.id OR provider_subscription_id = OLD.provider_subscription_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE user_subscriptions SET order_id = order_id WHERE order_id = NEW.id OR provider_subscription_id = NEW.provider_subscription_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "orders_subscription_price" ON "orders";
--> statement-breakpoint
CREATE TRIGGER "orders_subscription_price"
  AFTER INSERT OR DELETE OR UPDATE OF "status", "amount", "currency", "amount_discount", "promotion_code", "created_at", "provider_subscription_id" ON "orders"
  FOR EACH ROW EXECUTE FUNCTION "orders_subscription_price"();
--> statement-breakpoint
-- the rows written before this migration
UPDATE "user_subscriptions" SET "order_id" = "order_id";
