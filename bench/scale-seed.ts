// `npm run bench:scale`'s data: a grown shop written straight into the shop's own (migrated)
// schema with set-based INSERT … SELECT over generate_series, which the database runs in one
// pass per table (the same statements work on Postgres and on PGlite). Member i (1…members) has
// a deterministic mix of plans and states, so the figures are the same from run to run.
import pg from 'pg';

/** `affiliates: false` seeds no affiliate program: the baseline its cost on the renewal stream is measured against (issue 45). */
export type SeedSize = { members: number; ordersPerMember: number; events: number; auditEntries: number; affiliates?: boolean };
export const FULL_SIZE: SeedSize = { members: 100_000, ordersPerMember: 3, events: 1_000_000, auditEntries: 50_000 };

/** Anything that runs one SQL text: a pg client or PGlite. */
export type Runner = { query: (text: string) => Promise<unknown> };

/** The seeded member i's e-mail, TradingView username and first order's ids, for the searches. */
export const seededEmail = (i: number) => `member${i}@scale.example`;
export const seededUsername = (i: number) => `Trader_${i}`;
export const seededPaymentId = (order: number) => `pi_seed_${order}`;

// A member's id, and the plan and state each i gets: 10 % lifetime, 5 % comp; of the paid
// subscriptions 62 % active, 20 % canceled (ended), 6 % canceled at period end, 5 % past due, 7 % refunded.
const memberId = (i: string) => `md5('member-' || ${i})::uuid`;
const plan = (i: string) => `(ARRAY['monthly','monthly','monthly','monthly','quarterly','quarterly','yearly','euMonthly','euQuarterly','lifetime'])[1 + ${i} % 10]`;
const state = (i: string) => `CASE WHEN ${i} % 20 = 7 THEN 'comp' WHEN ${i} % 100 < 62 THEN 'active' WHEN ${i} % 100 < 82 THEN 'canceled'
  WHEN ${i} % 100 < 88 THEN 'canceling' WHEN ${i} % 100 < 93 THEN 'past_due' ELSE 'refunded' END`;

// the affiliates (issue 45): member 100·(j−1)+1 is affiliate j; 30 % of the members, never an affiliate, are attributed
const affiliateId = (j: string) => `md5('affiliate-' || ${j})::uuid`;
export const affiliateCount = (members: number) => Math.max(1, Math.floor(members / 100));
const attributed = (i: string) => `${i} % 10 >= 7`;

function statements({ members, ordersPerMember, events, auditEntries }: SeedSize): [string, string][] {
  const orders = members * ordersPerMember;
  return [
    ['members', `INSERT INTO "user" (id, name, email, email_verified, created_at, updated_at)
      SELECT ${memberId('i')}, 'Member ' || i, 'member' || i || '@scale.example', true, now() - (${members} - i) * interval '5 minutes', now()
      FROM generate_series(1, ${members}) i`],
    ['accounts', `INSERT INTO account (account_id, provider_id, user_id, password)
      SELECT ${memberId('i')}::text, 'credential', ${memberId('i')}, 'seeded:no-sign-in' FROM generate_series(1, ${members}) i`],
    ['checkout sessions', `INSERT INTO checkout_sessions (id, provider, plan_type, email, amount_total, currency, status, payment_status, provider_payment_id, claimed_by_user_id, claimed_at, completed_at, created_at)
      SELECT 'cs_seed_' || o, 'stripe', ${plan('m')}, 'member' || m || '@scale.example', 4900, 'usd', 'complete', 'paid', 'pi_seed_' || o, ${memberId('m')}, t, t, t
      FROM (SELECT o, 1 + (o - 1) % ${members} AS m, now() - (${orders} - o) * interval '100 seconds' AS t FROM generate_series(1, ${orders}) o) s`],
    ['orders', `INSERT INTO orders (id, user_id, checkout_session_id, plan_type, amount, currency, status, provider_payment_id, created_at)
      SELECT md5('order-' || o)::uuid, ${memberId('m')}, 'cs_seed_' || o, ${plan('m')}, CASE WHEN ${plan('m')} = 'lifetime' THEN 49900 ELSE 4900 END,
        CASE WHEN ${plan('m')} LIKE 'eu%' THEN 'eur' ELSE 'usd' END, CASE WHEN m % 100 >= 93 AND o > ${orders - members} THEN 'refunded' WHEN o % 500 = 0 THEN 'disputed' ELSE 'paid' END,
        'pi_seed_' || o, now() - (${orders} - o) * interval '100 seconds'
      FROM (SELECT o, 1 + (o - 1) % ${members} AS m FROM generate_series(1, ${orders}) o) s`],
    ['subscriptions', `INSERT INTO user_subscriptions (user_id, plan_type, status, is_active, expires_at, cancel_at_period_end, order_id, provider, provider_customer_id, provider_subscription_id, checkout_session_id, created_at)
      SELECT ${memberId('i')}, ${plan('i')},
        CASE st WHEN 'comp' THEN 'active' WHEN 'canceling' THEN 'active' WHEN 'refunded' THEN 'canceled' ELSE st END,
        st IN ('active', 'comp', 'canceling', 'past_due'),
        CASE WHEN ${plan('i')} = 'lifetime' AND st <> 'comp' THEN NULL WHEN st IN ('canceled', 'refunded') THEN now() - interval '20 days' ELSE now() + (1 + i % 28) * interval '1 day' END,
        st = 'canceling', CASE WHEN st = 'comp' THEN NULL ELSE md5('order-' || (${orders - members} + i))::uuid END,
        CASE WHEN st = 'comp' THEN 'comp' ELSE 'stripe' END, 'cus_seed_' || i,
        CASE WHEN st = 'comp' OR ${plan('i')} = 'lifetime' THEN NULL ELSE 'sub_seed_' || i END,
        CASE WHEN st = 'comp' THEN NULL ELSE 'cs_seed_' || (${orders - members} + i) END, now() - (${members} - i) * interval '5 minutes'
      FROM (SELECT i, ${state('i')} AS st FROM generate_series(1, ${members}) i) s`],
    ['TradingView usernames', `INSERT INTO tradingview_usernames (user_id, username, linked_at)
      SELECT ${memberId('i')}, 'Trader_' || i, now() - (${members} - i) * interval '5 minutes' FROM generate_series(1, ${members}) i`],
    // a grant per member, as the reconciler left it: those with access granted until their
    // subscription's end (lifetime without end), the others revoked; 1 % still pending, 0.5 % failed
    ['TradingView grants', `INSERT INTO tradingview_grants (user_id, username, desired, desired_expires_at, status, granted_expires_at, attempts, next_attempt_at, last_error, failing_since)
      SELECT s.user_id, 'Trader_' || i, CASE WHEN active THEN 'grant' ELSE 'revoke' END, expiry,
        CASE WHEN i % 200 = 3 THEN 'failed' WHEN i % 100 = 5 THEN 'pending' WHEN active THEN 'granted' ELSE 'revoked' END, expiry,
        CASE WHEN i % 200 = 3 THEN 5 ELSE 0 END, now() + CASE WHEN i % 200 = 3 THEN interval '1 hour' ELSE interval '0' END,
        CASE WHEN i % 200 = 3 THEN 'network: TradingView answered 500' END, CASE WHEN i % 200 = 3 THEN now() - interval '2 hours' END
      FROM (SELECT i, ${memberId('i')} AS id FROM generate_series(1, ${members}) i) m
      JOIN user_subscriptions s ON s.user_id = m.id,
      LATERAL (SELECT s.is_active AND (s.plan_type = 'lifetime' OR s.expires_at IS NULL OR s.expires_at > now()) AS active) a,
      LATERAL (SELECT CASE WHEN a.active AND s.plan_type <> 'lifetime' THEN s.expires_at END AS expiry) e`],
    ['processed events', `INSERT INTO processed_events (id, source, type, processed_at)
      SELECT 'evt_seed_' || e, 'stripe', (ARRAY['checkout.session.completed','invoice.paid','customer.subscription.updated','invoice.payment_failed'])[1 + e % 4],
        now() - (${events} - e) * interval '30 seconds' FROM generate_series(1, ${events}) e`],
    ['sent mails', `INSERT INTO outbox ("to", template, data, dedupe_key, status, attempts, sent_at, created_at, next_attempt_at)
      SELECT 'member' || (1 + (o - 1) % ${members}) || '@scale.example', 'receipt', '{}'::jsonb, 'seed-receipt-' || o, 'sent', 1, t, t, t
      FROM (SELECT o, now() - (${orders} - o) * interval '100 seconds' AS t FROM generate_series(1, ${orders}) o) s`],
    ['audit log', `INSERT INTO operator_audit_log (operator_email, action, target_user_id, details, created_at)
      SELECT 'ops' || (a % 3) || '@scale.example', (ARRAY['comp_access','resync','retry_grant','revoke_access'])[1 + a % 4], ${memberId(`(1 + a * 7 % ${members})`)},
        '{}'::jsonb, now() - (${auditEntries} - a) * interval '10 minutes' FROM generate_series(1, ${auditEntries}) a`],
    // the affiliate program (issue 45): one affiliate per 100 members (1,000 of 100,000), 30 % of
    // the members attributed to one of them, a commission for each of their orders (approved once
    // past the hold, reversed for a refund or dispute), two clicks per attributed member
    ['affiliates', `INSERT INTO affiliates (id, user_id, email, code, payout_email, joined_by, created_at, updated_at)
      SELECT ${affiliateId('j')}, ${memberId(`(100 * (j - 1) + 1)`)}, 'member' || (100 * (j - 1) + 1) || '@scale.example', 'AFF' || j,
        'payee' || j || '@wise.example', 'self', now() - interval '200 days', now()
      FROM generate_series(1, ${affiliateCount(members)}) j`],
    ['affiliate attributions', `INSERT INTO affiliate_attributions (email, affiliate_id, source, first_paid_at, attributed_at)
      SELECT 'member' || i || '@scale.example', ${affiliateId(`(1 + i * 31 % ${affiliateCount(members)})`)}, 'link', now() - (${members} - i) * interval '5 minutes', now() - (${members} - i) * interval '5 minutes'
      FROM generate_series(1, ${members}) i WHERE ${attributed('i')}`],
    ['affiliate clicks', `INSERT INTO affiliate_clicks (affiliate_id, visitor, day, created_at)
      SELECT ${affiliateId(`(1 + i * 31 % ${affiliateCount(members)})`)}, 'seed-' || i || '-' || k, (now() - (${members} - i) * interval '5 minutes' - k * interval '1 day')::date, now() - (${members} - i) * interval '5 minutes'
      FROM generate_series(1, ${members}) i, generate_series(1, 2) k WHERE ${attributed('i')}`],
    ['affiliate commissions', `INSERT INTO affiliate_commissions (affiliate_id, order_id, buyer_email, plan_type, currency, base_amount, amount, status, reason, approvable_at, approved_at, reversed_at, mailed, created_at, updated_at)
      SELECT ${affiliateId(`(1 + m * 31 % ${affiliateCount(members)})`)}, o.id, 'member' || m || '@scale.example', o.plan_type, o.currency, o.amount, o.amount * 3 / 10,
        CASE WHEN o.status <> 'paid' THEN 'reversed' WHEN o.created_at < now() - interval '30 days' THEN 'approved' ELSE 'pending' END,
        CASE WHEN o.status <> 'paid' THEN o.status END, o.created_at + interval '30 days',
        CASE WHEN o.status = 'paid' AND o.created_at < now() - interval '30 days' THEN o.created_at + interval '30 days' END,
        CASE WHEN o.status <> 'paid' THEN o.created_at + interval '3 days' END, true, o.created_at, o.created_at
      FROM (SELECT md5('order-' || n)::uuid AS id, 1 + (n - 1) % ${members} AS m FROM generate_series(1, ${orders}) n) s
      JOIN orders o ON o.id = s.id WHERE ${attributed('s.m')}`],
    // what autovacuum does on a live shop after a bulk load: the visibility map lets index-only scans skip the table
    ['statistics', 'VACUUM ANALYZE'],
  ];
}

/** Seeds `size` into the migrated database behind `run`; reports each table's time to `progress`. */
export async function seedScale(run: Runner, size: SeedSize, progress: (line: string) => void): Promise<void> {
  const seeded = statements(size).filter(([label]) => size.affiliates !== false || !label.startsWith('affiliate'));
  for (const [label, text] of seeded) {
    const started = performance.now();
    await run.query(text);
    progress(`seeded ${label} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** A pg client on `url` for seeding and counting; the caller ends it. */
export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}
