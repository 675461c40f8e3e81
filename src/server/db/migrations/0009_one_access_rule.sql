-- Whether one user_subscriptions row grants access at `as_of`: lifetime needs is_active; every
-- other plan also needs an expiry that is absent or after `as_of`. Status and provider do not
-- matter (a canceled or past_due row keeps access until it expires or is switched off).
-- The instant is a parameter so that reports read under a moved clock ask the same rule as
-- user_has_premium_access does today. Not STRICT: a null expires_at is an answer, not "unknown";
-- IMMUTABLE and a single expression, so the planner inlines it into the queries that call it.
CREATE OR REPLACE FUNCTION subscription_grants_access(is_active boolean, plan_type text, expires_at timestamptz, as_of timestamptz)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT is_active AND (plan_type = 'lifetime' OR expires_at IS NULL OR expires_at > as_of);
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION user_has_premium_access(user_uuid uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM user_subscriptions s
    WHERE s.user_id = user_uuid
      AND subscription_grants_access(s.is_active, s.plan_type, s.expires_at, now())
  );
$$;
