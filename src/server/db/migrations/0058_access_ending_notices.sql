-- migrate: no-transaction
-- Time-based ends through the access-change path (issue 44, decision 063): each change names the
-- subscription row behind it (the one carrying access after it, or the one whose access ended),
-- whether that row was set not to renew, whether it is complimentary access, and the end of its
-- period, which the mails' wording and dedupe keys need. A new kind, `ending_soon`, is recorded
-- once per row and period end (the unique index), when a canceled row's last three days begin;
-- the canceled rows still granting access are few, and their index keeps the expiry watch's pass
-- every 30 s from reading the renewing ones. Safe to run again; the indexes are built without
-- locking the tables of a live shop.
ALTER TABLE "access_changes" ADD COLUMN IF NOT EXISTS "row_id" uuid;
--> statement-breakpoint
ALTER TABLE "access_changes" ADD COLUMN IF NOT EXISTS "row_canceled" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "access_changes" ADD COLUMN IF NOT EXISTS "row_complimentary" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "access_changes" ADD COLUMN IF NOT EXISTS "period_end" timestamp with time zone;
--> statement-breakpoint
CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "access_changes_ending_soon_uq" ON "access_changes" ("row_id", "period_end") WHERE kind = 'ending_soon';
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "user_subscriptions_canceled_end_idx" ON "user_subscriptions" ("expires_at") WHERE user_id IS NOT NULL AND is_active AND (cancel_at_period_end OR status = 'canceled');
