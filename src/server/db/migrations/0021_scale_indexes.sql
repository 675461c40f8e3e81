-- migrate: no-transaction
-- What the console, the reconciler and the payments report look up at 100,000 members
-- (npm run bench:scale), built without locking the tables of a live shop.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "user_created_idx" ON "user" ("created_at", "id");
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "user_subscriptions_customer_idx" ON "user_subscriptions" ("provider_customer_id");
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_created_idx" ON "orders" ("created_at");
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_provider_subscription_idx" ON "orders" ("provider_subscription_id");
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "checkout_sessions_claimed_by_idx" ON "checkout_sessions" ("claimed_by_user_id");
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "processed_events_processed_idx" ON "processed_events" ("processed_at");
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "tradingview_grants_status_idx" ON "tradingview_grants" ("status", "updated_at");
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "tradingview_grants_lower_username_idx" ON "tradingview_grants" (lower("username"));
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "tradingview_grants_expiry_idx" ON "tradingview_grants" ("desired_expires_at") WHERE desired = 'grant';
