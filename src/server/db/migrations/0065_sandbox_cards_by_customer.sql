-- migrate: no-transaction
-- The sandbox's renewals charge each customer's card, the newest completed checkout's (issue 50):
-- read for a hundred customers at once in a renewal wave, which without this index scanned every
-- checkout session the sandbox ever made. Built without locking a live shop's table.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "sandbox_checkout_sessions_card_idx" ON "sandbox_checkout_sessions" ("customer_id", "updated_at") WHERE "status" = 'complete';
