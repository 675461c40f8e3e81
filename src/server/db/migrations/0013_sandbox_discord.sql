-- The sandbox Discord (the default while no bot is configured): its guild's members and the OAuth
-- codes and tokens its authorize page hands out (hashes only). Its roles come from configuration.
CREATE TABLE "sandbox_discord_members" (
	"discord_user_id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_discord_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"discord_user_id" text NOT NULL,
	"username" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"scopes" text[] NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_discord_tokens" (
	"access_token_hash" text PRIMARY KEY NOT NULL,
	"refresh_token_hash" text NOT NULL,
	"discord_user_id" text NOT NULL,
	"username" text NOT NULL,
	"scopes" text[] NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_discord_tokens_refresh_uq" ON "sandbox_discord_tokens" ("refresh_token_hash");
