-- A TradingView username belongs to one member (issue 46, decision 048). Access on TradingView is
-- per account: two members holding one name meant one subscription served an account someone else
-- paid for. Each link now says who made it and why it ended, and a current name (compared without
-- case) is held by one member at a time, enforced here so that two claims at the same moment
-- cannot both win.
ALTER TABLE "tradingview_usernames" ADD COLUMN "linked_by" text DEFAULT 'member' NOT NULL;
--> statement-breakpoint
ALTER TABLE "tradingview_usernames" ADD COLUMN "ended_by" text;
--> statement-breakpoint
-- Names two members hold today: the member with access keeps it (the earliest linked among
-- several), the others' links end as duplicates and are written to the audit log. Their grant rows
-- then ask for a revoke, which never removes access another member's row still wants.
WITH ranked AS (
	SELECT id, user_id, username,
		row_number() OVER (PARTITION BY lower(username) ORDER BY user_has_premium_access(user_id) DESC, linked_at ASC, id ASC) AS rank
	FROM "tradingview_usernames"
	WHERE replaced_at IS NULL
), released AS (
	UPDATE "tradingview_usernames" t SET replaced_at = now(), ended_by = 'duplicate'
	FROM ranked r
	WHERE r.id = t.id AND r.rank > 1
	RETURNING t.user_id, t.username
)
INSERT INTO "operator_audit_log" ("operator_email", "action", "target_user_id", "details")
SELECT 'system', 'release_duplicate_username', user_id, jsonb_build_object('username', username)
FROM released;
--> statement-breakpoint
CREATE UNIQUE INDEX "tradingview_usernames_name_uq" ON "tradingview_usernames" USING btree (lower("username")) WHERE "replaced_at" IS NULL;
