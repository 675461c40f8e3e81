-- The member's TradingView username leaves user_subscriptions for a table of the TradingView
-- module, with its history: one row per name the member linked, the current one without
-- replaced_at (at most one per member), older ones kept with the moment they were replaced.
CREATE TABLE "tradingview_usernames" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"username" text NOT NULL,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"replaced_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "tradingview_usernames" ADD CONSTRAINT "tradingview_usernames_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "tradingview_usernames_current_uq" ON "tradingview_usernames" USING btree ("user_id") WHERE "replaced_at" IS NULL;--> statement-breakpoint
CREATE INDEX "tradingview_usernames_user_idx" ON "tradingview_usernames" USING btree ("user_id","linked_at");--> statement-breakpoint
CREATE INDEX "tradingview_usernames_lower_idx" ON "tradingview_usernames" USING btree (lower("username"));--> statement-breakpoint
-- Existing names, per member: the name of the most recently updated row that carries one is the
-- current name; every other name (compared without case) is history, linked when the first row
-- carrying it was created and replaced when the last one was updated.
WITH named AS (
	SELECT s.id, s.user_id, s.tradingview_username AS username, s.created_at, s.updated_at
	FROM "user_subscriptions" s
	WHERE s.user_id IS NOT NULL AND s.tradingview_username IS NOT NULL AND s.tradingview_username <> ''
), latest AS (
	SELECT DISTINCT ON (user_id) user_id, lower(username) AS name
	FROM named
	ORDER BY user_id, updated_at DESC, created_at DESC, id DESC
), names AS (
	SELECT user_id, lower(username) AS name,
		(array_agg(username ORDER BY updated_at DESC, created_at DESC, id DESC))[1] AS username,
		min(created_at) AS first_seen, max(updated_at) AS last_seen
	FROM named
	GROUP BY user_id, lower(username)
)
INSERT INTO "tradingview_usernames" ("user_id", "username", "linked_at", "replaced_at")
SELECT n.user_id, n.username, n.first_seen,
	CASE WHEN n.name = l.name THEN NULL ELSE greatest(n.first_seen, n.last_seen) END
FROM names n JOIN latest l ON l.user_id = n.user_id;
--> statement-breakpoint
ALTER TABLE "user_subscriptions" DROP COLUMN "tradingview_username";
