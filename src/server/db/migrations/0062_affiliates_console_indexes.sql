-- migrate: no-transaction
-- The console's affiliates list at 1,000 affiliates and 90,000 commissions (issue 50, decision
-- 066): its counts over the whole program (affiliates flagged for refunds, the commissions by
-- status, the top five by revenue) are grouped passes over the commissions, which this index
-- answers alone (an index-only scan in affiliate order: no table read, no sort before grouping).
-- Built without locking a live shop's table.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "affiliate_commissions_buyers_idx" ON "affiliate_commissions" ("affiliate_id", "buyer_email") INCLUDE ("status", "currency", "amount", "base_amount");
