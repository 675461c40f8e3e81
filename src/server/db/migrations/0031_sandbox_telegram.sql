-- The sandbox Telegram's own state (modules/telegram/sandbox-telegram.ts): its users, its two
-- chats (written by the adapter at its first use) and who is in them, the invite links its bot made, and join requests.
CREATE TABLE "sandbox_telegram_users" (
	"id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_telegram_users_username_uq" ON "sandbox_telegram_users" (lower("username"));
--> statement-breakpoint
CREATE TABLE "sandbox_telegram_chats" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"type" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_telegram_chat_members" (
	"chat_id" text NOT NULL,
	"user_id" text NOT NULL,
	"status" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("chat_id", "user_id")
);
--> statement-breakpoint
CREATE TABLE "sandbox_telegram_invites" (
	"invite_link" text PRIMARY KEY NOT NULL,
	"chat_id" text NOT NULL,
	"member_limit" integer,
	"expire_at" timestamp with time zone,
	"uses" integer DEFAULT 0 NOT NULL,
	"revoked" boolean DEFAULT false NOT NULL,
	"creates_join_request" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_telegram_join_requests" (
	"chat_id" text NOT NULL,
	"user_id" text NOT NULL,
	"status" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	PRIMARY KEY ("chat_id", "user_id")
);
