-- migrate: no-transaction
-- The console at 100,000 members (decision 037), built without locking a live shop's tables.
-- Trigrams serve the member search's "part of an e-mail or username" (LIKE '%…%'), which read
-- the three tables whole; pg_trgm ships with Postgres and is loaded into PGlite by the client.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "user_email_trgm_idx" ON "user" USING gin (lower("email") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "tradingview_usernames_trgm_idx" ON "tradingview_usernames" USING gin (lower("username") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "tradingview_grants_trgm_idx" ON "tradingview_grants" USING gin (lower("username") gin_trgm_ops);
--> statement-breakpoint
-- The rows that may give access, with what decides a member's standing: the member list's
-- standing filters count their members from this instead of every subscription's row.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "user_subscriptions_access_idx" ON "user_subscriptions" ("user_id") INCLUDE ("status", "provider", "plan_type", "expires_at") WHERE is_active;
--> statement-breakpoint
-- Refunded and disputed orders, a few in a hundred, for the overview's reversals.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "orders_reversed_idx" ON "orders" ("status", "currency") INCLUDE ("amount") WHERE status IN ('refunded', 'disputed');
