-- One access rule in SQL (issue 44, decision 059): a row grants access while its access_until
-- (subscription_access_until, migration 0040) lies after the instant asked about, null standing
-- for "no end". subscription_grants_access had spelled the rule out a second time; it now asks
-- subscription_access_until. A switched-off row's access ended when it was switched off (its
-- updated_at, never after now), so is_active is only read first for clocks moved back (reports
-- and tests asking about an earlier instant than the switch-off).
CREATE OR REPLACE FUNCTION subscription_grants_access(is_active boolean, plan_type text, expires_at timestamptz, as_of timestamptz)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN is_active AND coalesce(subscription_access_until(is_active, plan_type, expires_at, as_of), 'infinity') > as_of;
