-- The durable mail outbox (docs/decisions/013): a mail is written as an intent (template + data)
-- in the transaction of the event that causes it, once per dedupe key, and a worker renders and
-- sends it with retries. Rows of the old sandbox outbox were already delivered to the mailbox.
ALTER TABLE "outbox" ADD COLUMN "template" text NOT NULL DEFAULT 'legacy';
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "data" jsonb NOT NULL DEFAULT '{}'::jsonb;
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "dedupe_key" text;
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "status" text NOT NULL DEFAULT 'sent';
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "attempts" integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL;
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "last_error" text;
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "sent_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "outbox" ALTER COLUMN "status" SET DEFAULT 'queued';
--> statement-breakpoint
ALTER TABLE "outbox" ALTER COLUMN "template" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "outbox" ALTER COLUMN "subject" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "outbox" ALTER COLUMN "text" DROP NOT NULL;
--> statement-breakpoint
ALTER TABLE "outbox" ALTER COLUMN "html" DROP NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_dedupe_key_uq" ON "outbox" USING btree ("dedupe_key");
--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("status","next_attempt_at");
