-- The sandbox provider's events are claimed by one deliverer at a time (each payment's route, the
-- sandbox job, every instance), and the undelivered ones are found without reading them all.
ALTER TABLE "sandbox_events" ADD COLUMN "leased_until" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "sandbox_events_pending_idx" ON "sandbox_events" ("created_at", "id") WHERE delivered_at IS NULL;
