// The funnel end to end in the sandbox: landing visits counted without a database write on the
// page (flushed in batches), crawlers and prefetches left out, the UTM kept in the shop's cookie
// and carried to the checkout, each step per day and per source (a vendor's own price list's page
// among them), and the bad query strings.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { setActiveCatalogue } from '@shared/catalogue';
import { UTM_MAX_LENGTH, type FunnelReport } from '@shared/funnel';
import { queryRows } from '../../db/query';
import { discordMembers, telegramMembers, user } from '../../db/schema';
import { consoleSuite, type ConsoleSuite } from '../../test-support/admin-test-kit';
import { jobsOf, payOnPage, startCheckout, undeliveredEvents } from '../../test-support/billing-test-kit';
import { cookieFrom } from '../../test-support/test-app';
import { utmCookieName } from './visit-counter';

// a test adds a price list to the process's catalogue: later suites of the worker get the seed's
afterAll(() => setActiveCatalogue(null));

let suite: ConsoleSuite;
consoleSuite((value) => (suite = value));
const db = () => suite.t.deps.database.db;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

let visitors = 0;
/** A landing visit from a browser of its own (its address and agent); answers the cookie it gets. */
async function visit(path: string, headers: Record<string, string> = {}): Promise<string> {
  visitors += 1;
  const response = await suite.t.request(path, {
    headers: {
      'user-agent': BROWSER,
      'x-forwarded-for': `198.51.100.${visitors}`,
      ...headers,
    },
  });
  return cookieFrom(response);
}

async function funnel(days = 30): Promise<FunnelReport> {
  const response = await suite.t.request(`/api/admin/funnel?days=${days}`, {
    cookie: suite.operator,
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as FunnelReport;
}

async function storedVisits(): Promise<number> {
  const [row] = await queryRows<{ visits: string | number | null }>(db(), sql`SELECT sum(visits) AS visits FROM funnel_visits`);
  return Number(row?.visits ?? 0);
}

async function buy(email: string, cookie?: string, originPage = '/') {
  const { sessionId } = await startCheckout(suite.t, { originPage }, cookie);
  expect((await payOnPage(suite.t, sessionId, email)).status).toBe(200);
  for (let pass = 0; pass < 5 && (await undeliveredEvents(suite.t)).length > 0; pass += 1) await jobsOf(suite.t).runOnce();
  return sessionId;
}

const sourceRow = (report: FunnelReport, kind: string, value: string) => report.bySource.find((row) => row.kind === kind && row.value === value);

describe('the funnel', () => {
  it('5 landing visits and 2 purchases: at least 5 visits, 2 checkouts started, 2 paid, each on today', async () => {
    const before = await funnel();
    for (let i = 0; i < 4; i += 1) await visit('/');
    const tagged = await visit('/eu?utm_source=Newsletter&utm_medium=email&utm_campaign=black-friday');
    // the page's answer wrote nothing: the visits wait in memory for the next batch
    expect(await storedVisits()).toBe(before.visits);

    await buy('funnel-a@example.com', tagged, '/eu');
    await buy('funnel-b@example.com');
    const report = await funnel();
    expect(report.visits - before.visits).toBe(5);
    expect(report.checkoutsStarted - before.checkoutsStarted).toBe(2);
    expect(report.paid - before.paid).toBe(2);
    expect(report.byDay).toHaveLength(30);
    const today = report.byDay.at(-1)!;
    expect(today.day).toBe(suite.time.now().toISOString().slice(0, 10));
    expect(today.visits).toBe(report.visits);
    expect(today.paid).toBe(report.paid);

    expect(sourceRow(report, 'utm', 'newsletter')).toMatchObject({
      visits: 1,
      checkoutsStarted: 1,
      paid: 1,
    });
    expect(sourceRow(report, 'priceList', '/eu')).toMatchObject({
      visits: 1,
      checkoutsStarted: 1,
      paid: 1,
    });
    expect(sourceRow(report, 'priceList', '/')!.visits).toBeGreaterThanOrEqual(4);
  });

  it("a vendor's own price list's page /{slug} is a landing page: its visits and checkouts under its price list, by the same rules", async () => {
    const added = await suite.t.request('/api/admin/catalogue/price-lists', {
      body: { slug: 'vip-club', currency: 'gbp', header: "Members' prices", entries: [{ plan: 'monthly', price: 2500 }] },
      cookie: suite.operator,
    });
    expect(added.status, await added.clone().text()).toBe(201);
    const before = await funnel();
    const tagged = await visit('/vip-club?utm_source=Podcast&ref=friend1');
    await visit('/vip-club/');
    // not people, and not a list's page: none of them counts
    await visit('/vip-club', { 'user-agent': 'Mozilla/5.0 (compatible; bingbot/2.0)' });
    await visit('/vip-club', { 'sec-purpose': 'prefetch' });
    await visit('/no-such-list');
    await visit('/vip-club/more');
    // the page's answer wrote nothing: the visits wait in memory for the next batch
    expect(await storedVisits()).toBe(before.visits);
    // the list's UTM reaches its checkout in the shop's own cookie, as on /
    expect(tagged).toContain(utmCookieName(suite.t.deps.config.site.brandSlug));

    await buy('funnel-vip@example.com', tagged, '/vip-club');
    const report = await funnel();
    expect(report.visits - before.visits).toBe(2);
    expect(report.visitors - before.visitors).toBe(2);
    expect(sourceRow(report, 'priceList', '/vip-club')).toMatchObject({ visits: 2, checkoutsStarted: 1, paid: 1 });
    expect(sourceRow(report, 'utm', 'podcast')).toMatchObject({ visits: 1, checkoutsStarted: 1, paid: 1 });
    expect(sourceRow(report, 'affiliate', 'FRIEND1')).toMatchObject({ visits: 1 });
    expect(sourceRow(report, 'priceList', '/no-such-list')).toBeUndefined();
    const pages = await queryRows<{ page: string }>(db(), sql`SELECT DISTINCT page FROM funnel_visits ORDER BY page`);
    expect(pages.map((row) => row.page)).not.toContain('/vip-club/more');
  });

  it('crawlers, scripts without a user agent and prefetches are not visits; a reload is a visit of the same browser', async () => {
    const before = await funnel();
    await visit('/', {
      'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    });
    await visit('/', { 'user-agent': '' });
    await visit('/', { 'sec-purpose': 'prefetch' });
    await visit('/pricing');
    // the API's reads are never a landing visit, whatever their query says
    expect(await visit('/api/site?utm_source=ads')).toBe('');
    const again = { 'user-agent': BROWSER, 'x-forwarded-for': '192.0.2.44' };
    await suite.t.request('/', { headers: again });
    await suite.t.request('/', { headers: again });
    const after = await funnel();
    expect(after.visits - before.visits).toBe(2);
    expect(after.visitors - before.visitors).toBe(1);
  });

  it('stores no address: the counters hold days, pages, tags and numbers only', async () => {
    await visit('/?utm_source=ads');
    await funnel();
    const columns = await queryRows<{ column_name: string }>(db(), sql`SELECT column_name FROM information_schema.columns WHERE table_name = 'funnel_visits'`);
    expect(columns.map((c) => c.column_name).sort()).toEqual(['affiliate_code', 'day', 'page', 'utm_campaign', 'utm_medium', 'utm_source', 'visitors', 'visits']);
    const rows = await queryRows<Record<string, unknown>>(db(), sql`SELECT * FROM funnel_visits`);
    expect(JSON.stringify(rows)).not.toContain('198.51.100');
  });

  it('a forged 5 KB UTM is cut to a short printable tag, in the counters and in the cookie that reaches the checkout', async () => {
    const forged = `${'x'.repeat(5000)}<script>`;
    const cookie = await visit(`/?utm_source=${forged}&utm_campaign=%00%0Aspring`);
    expect(cookie.length).toBeLessThan(400);
    const { sessionId } = await startCheckout(suite.t, {}, cookie);
    const [source] = await queryRows<{
      utm_source: string;
      utm_campaign: string;
    }>(db(), sql`SELECT utm_source, utm_campaign FROM funnel_checkout_sources WHERE checkout_session_id = ${sessionId}`);
    expect(source).toEqual({
      utm_source: 'x'.repeat(UTM_MAX_LENGTH),
      utm_campaign: 'spring',
    });
    const report = await funnel();
    expect(sourceRow(report, 'utm', 'x'.repeat(UTM_MAX_LENGTH))).toMatchObject({
      visits: 1,
      checkoutsStarted: 1,
      paid: 0,
    });
  });

  it('a tampered UTM cookie is no UTM at all', async () => {
    const { sessionId } = await startCheckout(suite.t, {}, `${utmCookieName(suite.t.deps.config.site.brandSlug)}=%E0%A4%A|b|c`);
    const [source] = await queryRows<{ utm_source: string }>(db(), sql`SELECT utm_source FROM funnel_checkout_sources WHERE checkout_session_id = ${sessionId}`);
    expect(source).toEqual({ utm_source: '' });
  });

  it.each([
    ['abc', 'days must be a whole number from 1 to 366.'],
    ['100000', 'days must be a whole number from 1 to 366.'],
    ['0', 'days must be a whole number from 1 to 366.'],
    ['-3', 'days must be a whole number from 1 to 366.'],
    ['7.5', 'days must be a whole number from 1 to 366.'],
  ])('days=%s is a 400 that says what is allowed', async (days, message) => {
    const response = await suite.t.request(`/api/admin/funnel?days=${days}`, {
      cookie: suite.operator,
    });
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain(message);
  });

  it("community linked counts a member's first link to Discord or Telegram once, on its day; a member linked before the period is not counted", async () => {
    const before = await funnel();
    const now = suite.time.now();
    const today = now.toISOString().slice(0, 10);
    const longAgo = new Date(now.getTime() - 40 * 24 * 60 * 60_000);
    const members = await db()
      .insert(user)
      .values(['telegram-only', 'both', 'discord-long-ago'].map((name) => ({ name, email: `linked-${name}-${randomUUID()}@example.com` })))
      .returning({ id: user.id });
    const [telegramOnly, both, earlier] = members.map((row) => row.id);
    await db()
      .insert(telegramMembers)
      .values([
        { userId: telegramOnly!, telegramUserId: `${Date.now()}1`, username: 'tg_only', linkedAt: now },
        { userId: both!, telegramUserId: `${Date.now()}2`, username: 'tg_both', linkedAt: now },
        { userId: earlier!, telegramUserId: `${Date.now()}3`, username: 'tg_later', linkedAt: now },
      ]);
    await db()
      .insert(discordMembers)
      .values([
        { userId: both!, discordUserId: `${Date.now()}4`, username: 'dc_both', linkedAt: now },
        { userId: earlier!, discordUserId: `${Date.now()}5`, username: 'dc_long_ago', linkedAt: longAgo },
      ]);
    const after = await funnel();
    expect(after.communityLinked - before.communityLinked).toBe(2);
    const day = (report: FunnelReport) => report.byDay.find((row) => row.day === today)!.communityLinked;
    expect(day(after) - day(before)).toBe(2);
  });

  it('days defaults to 30, and 366 is allowed; members and strangers are refused', async () => {
    const response = await suite.t.request('/api/admin/funnel', {
      cookie: suite.operator,
    });
    expect(((await response.json()) as FunnelReport).days).toBe(30);
    expect((await funnel(366)).byDay).toHaveLength(366);
    expect((await suite.t.request('/api/admin/funnel', { cookie: suite.member })).status).toBe(403);
    expect((await suite.t.request('/api/admin/funnel')).status).toBe(401);
  });
});
