-- Access for any one-time plan, not the word 'lifetime' (issue 43, decision 054): the slugs of
-- the catalogue's plans that never expire, kept for the SQL access rules. The seed's one-time plan
-- is there from the start (a shop sells the seed until its first edit writes the catalogue), and
-- every write of the catalogue adds its one-time plans. A plan's period never changes and a slug
-- is never removed (archived plans stay), so a row's answer never changes either: the functions
-- stay IMMUTABLE for the index on subscription_access_until. SQL-standard bodies bind the table
-- when they are created (a restore with an empty search_path still finds it).
CREATE TABLE IF NOT EXISTS "one_time_plans" (
	"slug" text PRIMARY KEY
);
--> statement-breakpoint
INSERT INTO "one_time_plans" ("slug") VALUES ('lifetime') ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "one_time_plans" ("slug") SELECT "slug" FROM "catalogue_plans" WHERE "never_expires" ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION subscription_grants_access(is_active boolean, plan_type text, expires_at timestamptz, as_of timestamptz)
RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN is_active AND (expires_at IS NULL OR expires_at > as_of OR EXISTS (SELECT 1 FROM one_time_plans p WHERE p.slug = plan_type));
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "subscription_access_until"(is_active boolean, plan_type text, expires_at timestamptz, updated_at timestamptz) RETURNS timestamptz
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN is_active THEN (CASE WHEN EXISTS (SELECT 1 FROM one_time_plans p WHERE p.slug = plan_type) THEN NULL ELSE expires_at END) ELSE least(coalesce(expires_at, updated_at), updated_at) END;
