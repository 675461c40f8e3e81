-- The access rule as the planner can inline it (issue 50, decision 066). Since migration 0040 both
-- functions asked one_time_plans in a subquery of their own body, and Postgres never inlines a SQL
-- function whose body holds a subquery: every row a report, a standing filter or a count read ran
-- the function's own executor and a probe of one_time_plans (about 5 µs a row, 0.5 s for 100,000
-- rows; the console's overview and member list went from 108 and 43 ms p95 to 938 and 519 ms).
-- The probe now sits in a function of its own, one_time_plan(slug), which the two rules call only
-- where its answer decides: a row with an expiry (access_until), a switched-on row whose expiry has
-- passed (grants_access). Both rules then inline into the query (the index on
-- subscription_access_until too: the planner inlines an index's expression as it does a query's),
-- and a row with access ahead costs a comparison. The answers are those of migration 0051: a row
-- grants access at `as_of` exactly when its access_until (null: no end) lies after it.
CREATE OR REPLACE FUNCTION one_time_plan(plan_type text) RETURNS boolean
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN EXISTS (SELECT 1 FROM one_time_plans p WHERE p.slug = plan_type);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "subscription_access_until"(is_active boolean, plan_type text, expires_at timestamptz, updated_at timestamptz) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN is_active THEN (CASE WHEN expires_at IS NULL OR one_time_plan(plan_type) THEN NULL ELSE expires_at END) ELSE least(coalesce(expires_at, updated_at), updated_at) END;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION subscription_grants_access(is_active boolean, plan_type text, expires_at timestamptz, as_of timestamptz)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN is_active AND (expires_at IS NULL OR expires_at > as_of OR one_time_plan(plan_type));
