import { gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Guide, GuideFeature, GuideSummary, Strategy, StrategySummary } from '@shared/content';
import type { PlanType } from '@shared/plans';
import { createReadCache } from '@shared/read-cache';
import { createApp } from '../../app';
import { compose } from '../../composition';
import { loadConfig } from '../../config';
import { session, userSubscriptions } from '../../db/schema';
import { createTestApp, signUp, type TestApp } from '../../test-support/test-app';
import { loadSiteContent } from './content.service';

let t: TestApp;
let outsider: string; // signed in, never bought
let lapsed: string; // signed in, subscription expired yesterday
let member: string; // signed in, active monthly subscription

async function userIdOf(cookie: string): Promise<string> {
  const session = (await (await t.request('/api/auth/get-session', { cookie })).json()) as { user: { id: string } };
  return session.user.id;
}

async function grant(cookie: string, expiresAt: Date | null, planType: PlanType = 'monthly') {
  await t.deps.database.db.insert(userSubscriptions).values({
    userId: await userIdOf(cookie),
    planType,
    status: 'active',
    isActive: true,
    expiresAt,
    provider: 'sandbox',
  });
}

const DAY = 86_400_000;

beforeAll(async () => {
  // The real content tree, as production loads it.
  t = await createTestApp({}, { content: await loadSiteContent(loadConfig({ NODE_ENV: 'test' })) });
  outsider = await signUp(t, 'outsider@example.com');
  lapsed = await signUp(t, 'lapsed@example.com');
  member = await signUp(t, 'member@example.com');
  await grant(lapsed, new Date(Date.now() - DAY));
  await grant(member, new Date(Date.now() + 30 * DAY));
});
afterAll(async () => {
  await t?.close();
});

const PRODUCT = 'candlewise-pro-v2';
const PREMIUM_PATHS = [
  '/api/content/guides',
  '/api/content/guides/getting-started',
  `/api/content/guides/${PRODUCT}/features/midline`,
  '/api/content/strategies',
  '/api/content/strategies/midline-trend-following',
  '/api/content/images/pro-v2-preview.svg',
  // Unknown ids are refused the same way, so an outsider cannot probe which ones exist.
  '/api/content/guides/no-such-guide',
];

describe('premium content is refused without access', () => {
  it.each(PREMIUM_PATHS)('401 without a session: %s', async (path) => {
    const response = await t.request(path);
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe('unauthorized');
  });

  it.each(PREMIUM_PATHS)('403 for a signed-in user who never bought: %s', async (path) => {
    const response = await t.request(path, { cookie: outsider });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: { code: 'forbidden', message: 'An active subscription is required to view this content.' },
    });
  });

  it('403 once the subscription has expired', async () => {
    expect((await t.request('/api/content/guides', { cookie: lapsed })).status).toBe(403);
  });
});

describe('premium content for a member', () => {
  it('lists the guides in overview order with counts', async () => {
    const response = await t.request('/api/content/guides', { cookie: member });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-cache');
    const { guides } = (await response.json()) as { guides: GuideSummary[] };
    const ids = guides.map((guide) => guide.id);
    expect(ids).toEqual(
      expect.arrayContaining([
        'getting-started',
        'technical-analysis',
        'chart-patterns',
        PRODUCT,
        'smart-money-concepts',
        'candlewise-volatility-index',
        'candlewise-setup',
        'tradingview-account',
      ]),
    );
    const byId = new Map(guides.map((guide) => [guide.id, guide]));
    expect(byId.get(PRODUCT)).toMatchObject({ type: 'product', difficulty: 'product', featureCount: 11 });
    expect(byId.get('smart-money-concepts')).toMatchObject({ type: 'product', featureCount: 7 });
    expect(byId.get('candlewise-volatility-index')).toMatchObject({ type: 'product', featureCount: 3 });
    expect(byId.get('getting-started')).toMatchObject({ type: 'guide', difficulty: 'beginner' });
    expect(byId.get('candlewise-setup')).toMatchObject({ difficulty: 'tutorial' });
    // The brand placeholder never leaks.
    expect(JSON.stringify(guides)).not.toContain('{brand}');
    expect(JSON.stringify(guides)).not.toContain('{product}');
    for (const guide of guides) expect(guide.previewImage).toMatch(/^\/api\/content\/images\/[\w.-]+\.svg$/);
  });

  it('serves one guide with its layout', async () => {
    const longForm = (await (await t.request('/api/content/guides/getting-started', { cookie: member })).json()) as Guide;
    expect(longForm.layout).toBe('long-form');
    expect(longForm.sections.length).toBeGreaterThan(1);
    const product = (await (await t.request(`/api/content/guides/${PRODUCT}`, { cookie: member })).json()) as Guide;
    expect(product.layout).toBe('feature-list');
    expect(product.features.map((feature) => feature.id)).toContain('midline');
    const setup = (await (await t.request('/api/content/guides/candlewise-setup', { cookie: member })).json()) as Guide;
    expect(setup.layout).toBe('single-page');
    expect(setup.introduction).toContain('](/api/content/images/');
  });

  it('tells the size of every image it shows, so the page can keep their room before they load', async () => {
    const guide = (await (await t.request('/api/content/guides/chart-patterns', { cookie: member })).json()) as Guide;
    const sectionImages = guide.sections.flatMap((section) => section.image ?? []);
    expect(sectionImages.length).toBeGreaterThan(2);
    expect(guide.images[guide.previewImage]).toEqual({ width: 640, height: 360 });
    for (const url of sectionImages) expect(guide.images[url], url).toEqual({ width: 800, height: 450 });
    const setup = (await (await t.request('/api/content/guides/candlewise-setup', { cookie: member })).json()) as Guide;
    const inline = [...setup.introduction.matchAll(/\]\((\/api\/content\/images\/[^)]+)\)/g)].map((match) => match[1] ?? '');
    expect(inline.length).toBeGreaterThan(0);
    for (const url of inline) expect(setup.images[url], url).toEqual({ width: 800, height: 450 });
    const strategy = (await (await t.request('/api/content/strategies/midline-trend-following', { cookie: member })).json()) as Strategy;
    expect(strategy.images[strategy.heroImage]).toEqual({ width: 1200, height: 480 });
  });

  it('serves a feature with its settings as a table', async () => {
    const response = await t.request(`/api/content/guides/${PRODUCT}/features/midline`, { cookie: member });
    expect(response.status).toBe(200);
    const feature = (await response.json()) as GuideFeature;
    expect(feature.title).toBe('Midline');
    const table = feature.blocks.find((block) => block.kind === 'table');
    expect(table).toMatchObject({ kind: 'table', headers: ['Setting', 'Description'] });
    expect(table?.kind === 'table' && table.rows.map((row) => row[0])).toContain('Midline Length');
  });

  it('answers 404 for an unknown guide, product or feature, and 400 for a malformed id', async () => {
    const unknownGuide = await t.request('/api/content/guides/no-such-guide', { cookie: member });
    expect(unknownGuide.status).toBe(404);
    expect((await unknownGuide.json()).error.code).toBe('not_found');
    expect((await t.request(`/api/content/guides/${PRODUCT}/features/no-such-feature`, { cookie: member })).status).toBe(404);
    expect((await t.request('/api/content/guides/no-such-product/features/midline', { cookie: member })).status).toBe(404);
    expect((await t.request('/api/content/strategies/no-such-strategy', { cookie: member })).status).toBe(404);
    const malformed = await t.request('/api/content/guides/Not_An_Id', { cookie: member });
    expect(malformed.status).toBe(400);
    expect((await malformed.json()).error.code).toBe('validation_failed');
  });

  it('lists the strategies and serves one with sanitised section HTML', async () => {
    const { strategies } = (await (await t.request('/api/content/strategies', { cookie: member })).json()) as { strategies: StrategySummary[] };
    expect(strategies.map((strategy) => strategy.id)).toEqual(['midline-trend-following', 'smc-oscillator-pullback']);
    expect(strategies[0]).toMatchObject({ difficulty: 'easy', timeframes: ['4H', '1H'] });
    expect(strategies[1]).toMatchObject({ difficulty: 'medium' });

    const strategy = (await (await t.request('/api/content/strategies/midline-trend-following', { cookie: member })).json()) as Strategy;
    expect(strategy.indicatorsRequired.length).toBeGreaterThan(0);
    expect(strategy.sections.length).toBe(strategy.sectionCount);
    const html = strategy.sections.map((section) => section.html).join('\n');
    expect(html).toContain('<table>');
    expect(html).not.toMatch(/<script|onerror=|javascript:/i);
  });

  it('serves content images as SVG, privately cached', async () => {
    const response = await t.request('/api/content/images/pro-v2-preview.svg', { cookie: member });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('cache-control')).toBe('private, max-age=3600');
    expect(await response.text()).toContain('<svg');
  });

  it('never serves files outside content/images', async () => {
    for (const path of ['/api/content/images/..%2F..%2Fpackage.json', '/api/content/images/.env', '/api/content/images/nope.svg']) {
      const response = await t.request(path, { cookie: member });
      expect([400, 404]).toContain(response.status);
    }
  });
});

// content answers are serialized and gzipped once; the member check still comes first
describe('content answers prepared once', () => {
  const GUIDE = '/api/content/guides/getting-started';

  it('sends the gzipped bytes to a client that accepts gzip, the plain JSON to one that does not', async () => {
    const plain = await t.request(GUIDE, { cookie: member });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('content-type')).toBe('application/json');
    const text = await plain.text();
    const gzipped = await t.request(GUIDE, { cookie: member, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.headers.get('vary')).toBe('Cookie, Accept-Encoding');
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString('utf8')).toBe(text);
    const refused = await t.request(GUIDE, { cookie: member, headers: { 'accept-encoding': 'gzip;q=0, identity' } });
    expect(refused.headers.get('content-encoding')).toBeNull();
    expect(await refused.text()).toBe(text);
  });

  it('answers 304 to a member who holds the same version, and each document has its own ETag', async () => {
    const first = await t.request(GUIDE, { cookie: member });
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await t.request(GUIDE, { cookie: member, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('private, no-cache');
    expect(await again.text()).toBe('');
    expect((await t.request(GUIDE, { cookie: member, headers: { 'if-none-match': `W/${etag}` } })).status).toBe(304);
    const other = await t.request('/api/content/strategies', { cookie: member, headers: { 'if-none-match': etag } });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).not.toBe(etag);
  });

  it('refuses a member whose access ended on the next request, whatever version they hold', async () => {
    const ending = await signUp(t, 'ending@example.com');
    await grant(ending, new Date(Date.now() + 30 * DAY));
    const held = await t.request(GUIDE, { cookie: ending });
    expect(held.status).toBe(200);
    await t.deps.database.db.update(userSubscriptions).set({ isActive: false }).where(eq(userSubscriptions.userId, await userIdOf(ending)));
    const after = await t.request(GUIDE, { cookie: ending, headers: { 'if-none-match': held.headers.get('etag') ?? '' } });
    expect(after.status).toBe(403);
  });
});

// A member's content read takes the session, its access and the published state from memory when
// they were read a moment ago (no statement, no promise): these pin down that memory never
// outlives what MEMBER_CACHE_MS promises.
describe('content read from memory, ended on time', () => {
  const GUIDE = '/api/content/guides/getting-started';

  it('refuses the next read after the member signs out, however recently the session was read', async () => {
    const leaving = await signUp(t, 'leaving@example.com');
    await grant(leaving, new Date(Date.now() + 30 * DAY));
    for (let read = 0; read < 3; read += 1) expect((await t.request(GUIDE, { cookie: leaving })).status).toBe(200);
    expect((await t.request('/api/auth/sign-out', { body: {}, cookie: leaving })).status).toBe(200);
    const after = await t.request(GUIDE, { cookie: leaving });
    expect(after.status).toBe(401);
    expect((await t.request('/api/content/strategies', { cookie: leaving })).status).toBe(401);
  });

  it('refuses the next read once the member revoked their sessions on another device', async () => {
    const both = await signUp(t, 'two-devices@example.com');
    await grant(both, new Date(Date.now() + 30 * DAY));
    const signIn = await t.request('/api/auth/sign-in/email', { body: { email: 'two-devices@example.com', password: 'Sup3rSecret!' } });
    const other = signIn.headers.getSetCookie().map((cookie) => cookie.split(';')[0]).join('; ');
    expect((await t.request(GUIDE, { cookie: both })).status).toBe(200);
    expect((await t.request('/api/auth/revoke-other-sessions', { body: {}, cookie: other })).status).toBe(200);
    expect((await t.request(GUIDE, { cookie: both })).status).toBe(401);
    expect((await t.request(GUIDE, { cookie: other })).status).toBe(200);
  });

  it('sees access given on the next read: a member who just bought is not kept refused', async () => {
    const buyer = await signUp(t, 'buyer@example.com');
    expect((await t.request(GUIDE, { cookie: buyer })).status).toBe(403);
    await grant(buyer, new Date(Date.now() + 30 * DAY));
    expect((await t.request(GUIDE, { cookie: buyer })).status).toBe(200);
  });

  // another instance (or the clock) ended it: this one sees no write, only the time it may keep a read
  it('on an instance that did not make the change, refuses within MEMBER_CACHE_MS and not before', async () => {
    let now = Date.now();
    const unseen = { count: 0 };
    const reads = createReadCache({ ttlMs: 1000, changes: unseen, now: () => now });
    const elsewhere = await createApp(compose(t.deps), { clientDir: null, reads });
    const read = (path: string, cookie: string) => elsewhere.request(path, { headers: { cookie } });
    const revoked = await signUp(t, 'revoked-elsewhere@example.com');
    const refunded = await signUp(t, 'refunded-elsewhere@example.com');
    await grant(revoked, new Date(Date.now() + 30 * DAY));
    await grant(refunded, new Date(Date.now() + 30 * DAY));
    expect((await read(GUIDE, revoked)).status).toBe(200);
    expect((await read(GUIDE, refunded)).status).toBe(200);

    await t.deps.database.db.delete(session).where(eq(session.userId, await userIdOf(revoked)));
    await t.deps.database.db.update(userSubscriptions).set({ isActive: false }).where(eq(userSubscriptions.userId, await userIdOf(refunded)));
    now += 999;
    expect((await read(GUIDE, revoked)).status).toBe(200);
    expect((await read(GUIDE, refunded)).status).toBe(200);
    now += 1;
    expect((await read(GUIDE, revoked)).status).toBe(401);
    expect((await read(GUIDE, refunded)).status).toBe(403);
  });

  it('answers 304 from memory to a member who holds the version, with the headers of the 200', async () => {
    const first = await t.request(GUIDE, { cookie: member });
    const etag = first.headers.get('etag') ?? '';
    const again = await t.request(GUIDE, { cookie: member, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('vary')).toBe('Cookie, Accept-Encoding');
  });
});
