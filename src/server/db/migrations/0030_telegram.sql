-- Telegram chats that follow payment (decision 046): the managed chats and the plans (by slug)
-- that open them, the one-time tokens of the bot's deep link, one row per linked Telegram account
-- with the chats it should be in and those it was let into (reconciled like Discord roles), the
-- invite links made for it, and the audit's repairs.
CREATE TABLE "telegram_chats" (
	"chat_id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"every_plan" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "telegram_plan_chats" (
	"plan_slug" text NOT NULL,
	"chat_id" text NOT NULL REFERENCES "telegram_chats"("chat_id") ON DELETE CASCADE,
	PRIMARY KEY ("plan_slug", "chat_id")
);
--> statement-breakpoint
CREATE TABLE "telegram_link_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "telegram_link_tokens_user_idx" ON "telegram_link_tokens" ("user_id");
--> statement-breakpoint
CREATE TABLE "telegram_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
	"telegram_user_id" text NOT NULL,
	"username" text NOT NULL,
	"current" boolean DEFAULT true NOT NULL,
	"desired_chats" text[] DEFAULT '{}'::text[] NOT NULL,
	"applied_chats" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"leased_until" timestamp with time zone,
	"last_error" text,
	"failing_since" timestamp with time zone,
	"linked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_members_user_account_uq" ON "telegram_members" ("user_id", "telegram_user_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "telegram_members_current_account_uq" ON "telegram_members" ("telegram_user_id") WHERE "current";
--> statement-breakpoint
CREATE INDEX "telegram_members_open_due_idx" ON "telegram_members" ("next_attempt_at") WHERE status IN ('pending', 'processing', 'failed');
--> statement-breakpoint
CREATE TABLE "telegram_invites" (
	"member_id" uuid NOT NULL REFERENCES "telegram_members"("id") ON DELETE CASCADE,
	"chat_id" text NOT NULL,
	"invite_link" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	PRIMARY KEY ("member_id", "chat_id")
);
--> statement-breakpoint
CREATE TABLE "telegram_repairs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"telegram_user_id" text NOT NULL,
	"user_id" uuid REFERENCES "user"("id") ON DELETE SET NULL,
	"chat_id" text NOT NULL,
	"action" text NOT NULL,
	"reason" text NOT NULL,
	"repaired_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "telegram_repairs_at_idx" ON "telegram_repairs" ("repaired_at");
