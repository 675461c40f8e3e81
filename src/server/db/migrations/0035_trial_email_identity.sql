-- A repeat trial is found by the person an e-mail reaches, not by its spelling: Gmail ignores dots
-- and "+tags" and googlemail.com is gmail.com, and other providers deliver "name+tag@" to "name@"
-- (src/shared/email-identity.ts holds the rule; this backfill is the same rule in SQL).
ALTER TABLE "trials" ADD COLUMN IF NOT EXISTS "email_identity" text;
--> statement-breakpoint
WITH parts AS (
  SELECT id, lower(trim(email)) AS address FROM "trials" WHERE "email_identity" IS NULL
), split AS (
  SELECT id, address, regexp_replace(address, '@[^@]*$', '') AS name, substring(address from '@([^@]+)$') AS domain FROM parts
), plain AS (
  SELECT id, address, domain,
    CASE
      WHEN domain IN ('gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.com', 'live.com', 'msn.com', 'icloud.com', 'me.com', 'mac.com', 'fastmail.com', 'proton.me', 'protonmail.com', 'pm.me')
        AND position('+' in name) > 1 THEN split_part(name, '+', 1)
      ELSE name
    END AS name
  FROM split
)
UPDATE "trials" t SET "email_identity" = CASE
    WHEN p.domain IS NULL OR p.name = '' THEN p.address
    WHEN p.domain IN ('gmail.com', 'googlemail.com') THEN replace(p.name, '.', '') || '@gmail.com'
    ELSE p.name || '@' || p.domain
  END
FROM plain p WHERE p.id = t.id;
--> statement-breakpoint
ALTER TABLE "trials" ALTER COLUMN "email_identity" SET NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "trials_email_identity_idx" ON "trials" ("email_identity");
