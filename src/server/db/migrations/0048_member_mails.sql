-- Keeping members (decision 056): promotion codes for members whose access ended (win-back), the
-- operator's mail switches and win-back settings (one row), and the member mails (win-back,
-- set-up reminders) each member turned off.
ALTER TABLE "promotion_codes" ADD COLUMN "churned_only" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE TABLE "mail_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"switches" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"winback_days" integer DEFAULT 14 NOT NULL,
	"winback_code" text,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_settings_one_row" CHECK ("id" = 1)
);
--> statement-breakpoint
CREATE TABLE "member_mail_optouts" (
	"user_id" uuid NOT NULL REFERENCES "user"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "member_mail_optouts_pk" PRIMARY KEY ("user_id", "kind")
);
