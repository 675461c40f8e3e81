-- Support in one action (operator console): a subscription whose collection is paused (Stripe's
-- pause_collection; the vendor's choice of keeping or stopping access travels in its metadata), the
-- sandbox provider's own record of the same, and the members banned from the shop (their access
-- ended, their provider subscriptions canceled, and checkout refused to the account and its e-mail).
ALTER TABLE "user_subscriptions" ADD COLUMN "collection_paused" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "sandbox_subscriptions" ADD COLUMN "paused_access" text;
--> statement-breakpoint
CREATE TABLE "member_bans" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
	"email" text NOT NULL,
	"reason" text,
	"banned_by" text NOT NULL,
	"refunded_payment_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "member_bans_email_idx" ON "member_bans" ("email");
