-- Discord roles that follow payment: one row per linked Discord account with the managed roles it
-- should hold and those it holds, reconciled like TradingView grants; and the audit's repairs.
CREATE TABLE "discord_members" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
	"discord_user_id" text NOT NULL,
	"username" text NOT NULL,
	"current" boolean DEFAULT true NOT NULL,
	"desired_roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"applied_roles" text[] DEFAULT '{}'::text[] NOT NULL,
	"remove_from_guild" boolean DEFAULT false NOT NULL,
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
CREATE UNIQUE INDEX "discord_members_user_account_uq" ON "discord_members" ("user_id", "discord_user_id");
--> statement-breakpoint
CREATE UNIQUE INDEX "discord_members_current_account_uq" ON "discord_members" ("discord_user_id") WHERE "current";
--> statement-breakpoint
CREATE INDEX "discord_members_due_idx" ON "discord_members" ("next_attempt_at");
--> statement-breakpoint
CREATE TABLE "discord_repairs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"discord_user_id" text NOT NULL,
	"user_id" uuid REFERENCES "user"("id") ON DELETE SET NULL,
	"role_id" text NOT NULL,
	"action" text NOT NULL,
	"reason" text NOT NULL,
	"repaired_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "discord_repairs_at_idx" ON "discord_repairs" ("repaired_at");
