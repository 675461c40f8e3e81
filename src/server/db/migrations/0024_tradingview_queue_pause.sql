-- The grant queue's pause, shared by every instance on this database (decision 032, amended
-- 2026-11-27): a 429 or an expired TradingView session seen by one instance holds every instance's queue,
-- and the console shows it whichever instance answers. At most one row.
CREATE TABLE IF NOT EXISTS "tradingview_queue_pause" (
	"id" smallint PRIMARY KEY DEFAULT 1 CHECK ("id" = 1),
	"reason" text NOT NULL,
	"since" timestamp with time zone NOT NULL,
	"until" timestamp with time zone,
	"detail" text NOT NULL
);
