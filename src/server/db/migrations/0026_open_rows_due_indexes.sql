-- migrate: no-transaction
-- The grant and Discord queues claim the oldest due row that is still open. Their due indexes held
-- every row, settled ones too: at 100,000 members a claim walked ~100,000 granted rows (whose
-- next_attempt_at is old) to reach the first open one, 166 ms of database time per claim, which
-- capped the grant queue and slowed every webhook beside it. An index of the open rows only stays
-- the queue's size. Built and dropped without locking the tables of a live shop.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "tradingview_grants_open_due_idx" ON "tradingview_grants" ("next_attempt_at") WHERE status IN ('pending', 'processing', 'failed');
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "tradingview_grants_due_idx";
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "discord_members_open_due_idx" ON "discord_members" ("next_attempt_at") WHERE status IN ('pending', 'processing', 'failed');
--> statement-breakpoint
DROP INDEX CONCURRENTLY IF EXISTS "discord_members_due_idx";
