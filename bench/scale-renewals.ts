// The renewal stream: every running sandbox subscription of the buyers named comes due at once,
// the sandbox provider renews them and delivers its events to the shop's payment-event handler
// (the one Stripe's webhooks reach); events per second and the p99 from event to processed.
import type pg from 'pg';

export type EventStream = { subscriptions: number; events: number; seconds: number; perSecond: number; p99Ms: number };

const DEADLINE_MS = 10 * 60_000;

export async function renewalStream(db: pg.Client, emailPattern: string): Promise<EventStream> {
  const { rows: [mark] } = await db.query<{ at: Date }>('SELECT clock_timestamp() AS at');
  const { rowCount } = await db.query(
    `UPDATE sandbox_subscriptions SET current_period_end = clock_timestamp() - interval '1 second'
     WHERE status = 'active' AND NOT cancel_at_period_end AND customer_id IN (SELECT id FROM sandbox_customers WHERE email LIKE $1)`,
    [emailPattern],
  );
  const subscriptions = rowCount ?? 0;
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const { rows: [state] } = await db.query<{ renewed: number; undelivered: number }>(
      `SELECT (SELECT count(*)::int FROM sandbox_subscriptions s JOIN sandbox_customers c ON c.id = s.customer_id
                WHERE c.email LIKE $1 AND s.current_period_end < $2) AS renewed,
              (SELECT count(*)::int FROM sandbox_events WHERE delivered_at IS NULL) AS undelivered`,
      [emailPattern, mark!.at],
    );
    if ((state!.renewed === 0 && state!.undelivered === 0) || Date.now() > deadline) break;
    await new Promise((done) => setTimeout(done, 250));
  }
  const { rows: [figures] } = await db.query<{ events: number; seconds: number; p99: number }>(
    `SELECT count(*)::int AS events, extract(epoch FROM max(delivered_at) - $1)::float AS seconds,
       (percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM delivered_at - created_at)) * 1000)::float AS p99
     FROM sandbox_events WHERE created_at >= $1 AND delivered_at IS NOT NULL`,
    [mark!.at],
  );
  const seconds = figures!.seconds || Number.NaN;
  return { subscriptions, events: figures!.events, seconds, perSecond: figures!.events / seconds, p99Ms: figures!.p99 };
}
