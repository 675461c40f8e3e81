-- The catalogue as data (decision record 045): plans, price lists and their prices, and sales.
-- Empty until the operator's first edit (console or `npm run admin -- plans`), which writes the
-- seed's catalogue (today's plans and the PRICE_* / REGULAR_PRICE_* / SALE_* keys) and the edit in
-- one transaction; until then every instance sells the seed's catalogue from its configuration.
CREATE TABLE catalogue_plans (
  slug text PRIMARY KEY,
  name text NOT NULL CHECK (length(trim(name)) > 0),
  -- a one-time plan never expires and has no period; a recurring one bills every period_count period_units
  period_unit text CHECK (period_unit IN ('day', 'week', 'month', 'year')),
  period_count integer CHECK (period_count > 0),
  never_expires boolean NOT NULL DEFAULT false,
  variant_of text,
  regular_price integer CHECK (regular_price > 0 AND regular_price <= 100000000),
  badge text,
  popular boolean NOT NULL DEFAULT false,
  button_text text,
  features text[] NOT NULL DEFAULT '{}',
  position integer NOT NULL DEFAULT 0,
  period_label text,
  per_month boolean NOT NULL DEFAULT false,
  trial_days integer CHECK (trial_days >= 0 AND trial_days <= 730),
  discord_role_ids text[] NOT NULL DEFAULT '{}',
  archived boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT catalogue_plans_period_ck CHECK (
    (never_expires AND period_unit IS NULL AND period_count IS NULL)
    OR (NOT never_expires AND period_unit IS NOT NULL AND period_count IS NOT NULL)
  )
);
--> statement-breakpoint
CREATE TABLE catalogue_price_lists (
  slug text PRIMARY KEY,
  currency text NOT NULL,
  header text,
  countdown boolean NOT NULL DEFAULT false,
  position integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE TABLE catalogue_prices (
  list_slug text NOT NULL REFERENCES catalogue_price_lists(slug) ON DELETE CASCADE,
  plan_slug text NOT NULL REFERENCES catalogue_plans(slug),
  price integer NOT NULL CHECK (price > 0 AND price <= 100000000),
  -- the provider's price charged for it (Stripe); a new price gets a new id, never an edit
  stripe_price_id text,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (list_slug, plan_slug)
);
--> statement-breakpoint
CREATE TABLE catalogue_sales (
  id text PRIMARY KEY,
  label text NOT NULL CHECK (length(trim(label)) > 0),
  list_slug text NOT NULL REFERENCES catalogue_price_lists(slug) ON DELETE CASCADE,
  starts_at timestamptz,
  -- null: the demo's rolling sale, always a few days from its end
  ends_at timestamptz,
  countdown boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT catalogue_sales_window_ck CHECK (starts_at IS NULL OR ends_at IS NULL OR ends_at > starts_at)
);
--> statement-breakpoint
CREATE TABLE catalogue_sale_prices (
  sale_id text NOT NULL REFERENCES catalogue_sales(id) ON DELETE CASCADE,
  plan_slug text NOT NULL REFERENCES catalogue_plans(slug),
  price integer NOT NULL CHECK (price > 0 AND price <= 100000000),
  stripe_price_id text,
  PRIMARY KEY (sale_id, plan_slug)
);
--> statement-breakpoint
-- One row: bumped by every edit, read by each instance at most once per MEMBER_CACHE_MS.
CREATE TABLE catalogue_state (
  id smallint PRIMARY KEY CHECK (id = 1),
  version integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
