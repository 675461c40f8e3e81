-- The access rule of spec §4, callable as the spec's RPC: lifetime needs is_active; every other
-- plan also needs an expiry that is absent or in the future. Canceled rows keep access until expiry.
CREATE OR REPLACE FUNCTION user_has_premium_access(user_uuid uuid) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM user_subscriptions s
    WHERE s.user_id = user_uuid
      AND s.is_active
      AND (s.plan_type = 'lifetime' OR s.expires_at IS NULL OR s.expires_at > now())
  );
$$;
