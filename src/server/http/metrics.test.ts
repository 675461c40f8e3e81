import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { discordMembers, outbox, paymentEventFailures, telegramMembers, tradingviewGrants, user } from '../db/schema';
import { createTestApp, type TestApp } from '../test-support/test-app';

const TOKEN = 'metrics-token-0123456789';

/** The value of one series in the text format (the first line that names it with these labels). */
function valueOf(text: string, series: string): number | null {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

describe('/metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    // the test app's client is 203.0.113.7 (through its trusted proxy)
    t = await createTestApp({ METRICS_TOKEN: TOKEN, METRICS_ALLOW: '203.0.113.0/24' });
  });
  afterAll(async () => {
    await t?.close();
  });

  const scrape = async (headers: Record<string, string> = {}) => {
    const response = await t.request('/metrics', { headers });
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  };

  it('answers a scraper with the token or from an allowed address, and refuses anyone else', async () => {
    expect((await scrape({ 'x-forwarded-for': '198.51.100.9', authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await scrape()).status).toBe(200);
    const refused = await scrape({ 'x-forwarded-for': '198.51.100.9' });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text)).toEqual({ error: { code: 'forbidden', message: expect.stringContaining('METRICS_TOKEN') } });
    expect((await scrape({ 'x-forwarded-for': '198.51.100.9', authorization: 'Bearer wrong-token-wrong-token' })).status).toBe(403);
  });

  it('counts requests by matched route and status, with their time', async () => {
    await t.request('/healthz');
    await t.request('/api/sandbox/checkout/cs_no_such_checkout');
    const { status, type, text } = await scrape();
    expect(status).toBe(200);
    expect(type).toContain('text/plain');
    expect(valueOf(text, 'candlewise_http_requests_total{method="GET",route="/healthz",status="200"}')).toBeGreaterThanOrEqual(1);
    // the route as registered: one series for every checkout
    expect(text).toMatch(/candlewise_http_requests_total\{method="GET",route="\/api\/sandbox\/checkout\/:[a-zA-Z]+",status="4\d\d"\} 1/);
    expect(text).not.toContain('cs_no_such_checkout');
    expect(valueOf(text, 'candlewise_http_request_duration_seconds_count{method="GET",route="/healthz"}')).toBeGreaterThanOrEqual(1);
  });

  it("reports the background queues' backlogs, failed grants and the webhook lag from the database", async () => {
    const db = t.deps.database.db;
    const [member] = await db.insert(user).values({ name: 'Queued', email: 'queued@example.com' }).returning();
    const hourAgo = new Date(Date.now() - 60 * 60_000);
    await db.insert(tradingviewGrants).values([
      { userId: member!.id, username: 'due_one', status: 'pending', nextAttemptAt: hourAgo },
      { userId: member!.id, username: 'failing_one', status: 'failed', nextAttemptAt: new Date(Date.now() + 60 * 60_000), lastError: 'throttled' },
    ]);
    await db.insert(outbox).values({ template: 'receipt', to: 'queued@example.com', status: 'queued' });
    await db.insert(paymentEventFailures).values({ kind: 'handler', eventId: 'evt_metrics', error: 'boom', firstFailedAt: hourAgo });
    const { text } = await scrape();
    expect(valueOf(text, 'candlewise_grant_queue_due')).toBe(1);
    expect(valueOf(text, 'candlewise_grants_failed')).toBe(1);
    expect(valueOf(text, 'candlewise_grant_queue_oldest_due_seconds')).toBeGreaterThanOrEqual(3_500);
    expect(valueOf(text, 'candlewise_outbox_backlog')).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'candlewise_webhook_failures_unresolved')).toBe(1);
    expect(valueOf(text, 'candlewise_webhook_lag_seconds')).toBeGreaterThanOrEqual(3_500);
    for (const series of ['candlewise_discord_backlog', 'candlewise_access_change_deliveries_waiting', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'process_resident_memory_bytes']) {
      expect(valueOf(text, series), series).not.toBeNull();
    }
    await db.execute(sql`DELETE FROM payment_event_failures`);
  });

  it("reports each community's queue as its integration counts it: Discord's and Telegram's", async () => {
    const db = t.deps.database.db;
    const [member] = await db.insert(user).values({ name: 'Linked', email: 'linked@example.com' }).returning();
    const hourAgo = new Date(Date.now() - 60 * 60_000);
    const later = new Date(Date.now() + 60 * 60_000);
    await db.insert(discordMembers).values({ userId: member!.id, discordUserId: '200000000000000001', username: 'queued_discord', status: 'pending', nextAttemptAt: hourAgo });
    await db.insert(telegramMembers).values([
      { userId: member!.id, telegramUserId: '300000001', username: 'due_telegram', current: false, status: 'pending', nextAttemptAt: hourAgo },
      { userId: member!.id, telegramUserId: '300000002', username: 'failing_telegram', status: 'failed', nextAttemptAt: later, lastError: 'flood wait' },
    ]);
    const { text } = await scrape();
    expect(valueOf(text, 'candlewise_discord_backlog')).toBe(1);
    expect(valueOf(text, 'candlewise_discord_failed')).toBe(0);
    expect(valueOf(text, 'candlewise_telegram_backlog')).toBe(1);
    expect(valueOf(text, 'candlewise_telegram_failed')).toBe(1);
    expect(text).toContain('# HELP candlewise_telegram_backlog Telegram: linked accounts whose chats are due a change now');
  });
});

describe('/metrics without METRICS_TOKEN or METRICS_ALLOW', () => {
  it('is not served', async () => {
    const t = await createTestApp();
    try {
      const response = await t.request('/metrics');
      expect(response.status).not.toBe(200);
      expect(await response.text()).not.toContain('candlewise_http_requests_total');
    } finally {
      await t.close();
    }
  });
});
