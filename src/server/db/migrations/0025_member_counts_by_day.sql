-- migrate: no-transaction
-- The overview's members counted once per day instead of per request (decision 037, amended
-- 2026-11-27). A subscription row's stretch of access ends at its expiry, or when it was switched
-- off (updated_at) if that came first, and never while an active lifetime row lasts: one
-- definition, inlined by the planner wherever the overview's queries and the index below use it.
CREATE OR REPLACE FUNCTION "subscription_access_until"(is_active boolean, plan_type text, expires_at timestamptz, updated_at timestamptz) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN is_active THEN (CASE WHEN plan_type = 'lifetime' THEN NULL ELSE expires_at END) ELSE least(coalesce(expires_at, updated_at), updated_at) END;
--> statement-breakpoint
-- The chart's members with access on each past UTC day, as the overview last counted them.
CREATE TABLE IF NOT EXISTS "member_counts_by_day" (
	"day" date PRIMARY KEY,
	"members" integer NOT NULL,
	"computed_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- The member movement as it stood at the start of a UTC day (`day`): members whose first access
-- since 29 days before began before that midnight, and members with access 29 days before and
-- none at that midnight. The overview adds the day's changes so far.
CREATE TABLE IF NOT EXISTS "member_movement_by_day" (
	"day" date PRIMARY KEY,
	"new_members" integer NOT NULL,
	"churned" integer NOT NULL,
	"computed_at" timestamp with time zone NOT NULL DEFAULT now()
);
--> statement-breakpoint
-- Whoever writes a row (checkouts, renewals, the reconciler, imports writing history in the past,
-- operators, tests), the counts its old or new stretch of access could change are forgotten in
-- the same transaction, and the overview counts them again. A renewal or a switch-off now only
-- moves a stretch's end within the future, which no stored count depends on. The shared lock lets
-- the overview (exclusive) fill the tables while no such write is under way.
CREATE OR REPLACE FUNCTION "member_counts_forget"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_from timestamptz; old_until timestamptz := 'infinity'; new_from timestamptz; new_until timestamptz := 'infinity';
  days date[]; moves date[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM member_counts_by_day;
    DELETE FROM member_movement_by_day;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' AND OLD.user_id IS NOT NULL THEN
    old_from := OLD.created_at;
    old_until := coalesce(subscription_access_until(OLD.is_active, OLD.plan_type, OLD.expires_at, OLD.updated_at), 'infinity');
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.user_id IS NOT NULL THEN
    new_from := NEW.created_at;
    new_until := coalesce(subscription_access_until(NEW.is_active, NEW.plan_type, NEW.expires_at, NEW.updated_at), 'infinity');
  END IF;
  IF old_from IS NOT DISTINCT FROM new_from AND old_until = new_until AND (TG_OP <> 'UPDATE' OR OLD.user_id IS NOT DISTINCT FROM NEW.user_id) THEN
    RETURN NULL;
  END IF;
  PERFORM pg_advisory_xact_lock_shared(2026112737);
  IF TG_OP = 'UPDATE' AND OLD.user_id IS NOT DISTINCT FROM NEW.user_id THEN
    -- the same member's stretch moved: only the days and instants between its old and new ends change
    SELECT array_agg(day) INTO days FROM member_counts_by_day
      WHERE (day >= (least(old_from, new_from) AT TIME ZONE 'UTC')::date AND day < (greatest(old_from, new_from) AT TIME ZONE 'UTC')::date)
         OR (day >= (least(old_until, new_until) AT TIME ZONE 'UTC')::date AND day < (greatest(old_until, new_until) AT TIME ZONE 'UTC')::date);
    SELECT array_agg(day) INTO moves FROM member_movement_by_day
      WHERE (old_from <> new_from AND day::timestamp AT TIME ZONE 'UTC' >= least(old_from, new_from))
         OR (old_until <> new_until AND EXISTS (
              SELECT 1 FROM unnest(ARRAY[89, 29, 0]) back
              WHERE (day - back)::timestamp AT TIME ZONE 'UTC' BETWEEN least(old_until, new_until) AND greatest(old_until, new_until)));
  ELSE
    -- a stretch appeared or went (a member's row written, deleted, or given to another member)
    SELECT array_agg(day) INTO days FROM member_counts_by_day
      WHERE (old_from IS NOT NULL AND day >= (old_from AT TIME ZONE 'UTC')::date AND day < (old_until AT TIME ZONE 'UTC')::date)
         OR (new_from IS NOT NULL AND day >= (new_from AT TIME ZONE 'UTC')::date AND day < (new_until AT TIME ZONE 'UTC')::date);
    SELECT array_agg(day) INTO moves FROM member_movement_by_day
      WHERE day::timestamp AT TIME ZONE 'UTC' >= least(old_from, new_from);
  END IF;
  -- one writer at a time forgets stored counts: two writing several past rows each would
  -- otherwise delete the same days in opposite orders and deadlock
  IF days IS NOT NULL OR moves IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(2026112738);
    DELETE FROM member_counts_by_day WHERE day = ANY (days);
    DELETE FROM member_movement_by_day WHERE day = ANY (moves);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS "member_counts_forget" ON "user_subscriptions";
--> statement-breakpoint
CREATE TRIGGER "member_counts_forget" AFTER INSERT OR DELETE OR UPDATE OF "user_id", "created_at", "is_active", "plan_type", "expires_at", "updated_at" ON "user_subscriptions"
  FOR EACH ROW EXECUTE FUNCTION "member_counts_forget"();
--> statement-breakpoint
DROP TRIGGER IF EXISTS "member_counts_forget_all" ON "user_subscriptions";
--> statement-breakpoint
CREATE TRIGGER "member_counts_forget_all" AFTER TRUNCATE ON "user_subscriptions"
  FOR EACH STATEMENT EXECUTE FUNCTION "member_counts_forget"();
--> statement-breakpoint
-- The day's changes: stretches ending since a given instant, and members' rows begun since one.
CREATE INDEX CONCURRENTLY IF NOT EXISTS "user_subscriptions_access_until_idx" ON "user_subscriptions" (subscription_access_until(is_active, plan_type, expires_at, updated_at)) INCLUDE ("user_id") WHERE user_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX CONCURRENTLY IF NOT EXISTS "user_subscriptions_created_idx" ON "user_subscriptions" ("created_at") INCLUDE ("user_id") WHERE user_id IS NOT NULL;
