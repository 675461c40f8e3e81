-- Rate limits of our own (issue 11): per-account sign-in back-off and anonymous checkouts per
-- address, one row per key, shared by every instance.
CREATE TABLE "throttles" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "throttles_expires_idx" ON "throttles" USING btree ("expires_at");
--> statement-breakpoint
-- Repeats of one security event fold into one row: how many, and when the newest happened
-- (null: only the one at created_at).
ALTER TABLE "security_events" ADD COLUMN "count" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "security_events" ADD COLUMN "last_seen_at" timestamp with time zone;
