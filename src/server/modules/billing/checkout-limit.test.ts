// The anonymous-checkout limit during a sale: buyers behind one shared address (a carrier NAT, an
// office) each reach the checkout, a client without cookies is still counted by its address, and
// a refusal says which limit ran out and when to come back.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ANONYMOUS_CHECKOUTS_PER_ADDRESS, ANONYMOUS_CHECKOUTS_PER_BROWSER, ANONYMOUS_CHECKOUTS_PER_SHARED_ADDRESS } from '@shared/throttle';
import { createApp } from '../../app';
import { queryRows } from '../../db/query';
import { throttles } from '../../db/schema';
import { cookieFrom, createTestApp, type TestApp } from '../../test-support/test-app';

const SHARED_ADDRESS = '198.51.100.9';
const BROWSER_COOKIE = 'candlewise.browser';
/** An id as the shop's pages hand every browser (browser-token.ts). */
const browserId = () => randomBytes(16).toString('base64url');

describe('anonymous checkouts from one shared address', () => {
  let t: TestApp;
  // The app's clock stands still within a test: a refusal's Retry-After is the whole window
  // however long the checkouts before it took (a busy machine took over a second for them).
  let now: Date;
  const clock = () => now;
  beforeEach(async () => {
    now = new Date();
    t = await createTestApp({}, { clock });
  });
  afterEach(async () => {
    await t.close();
  });

  const checkout = (cookie?: string) =>
    t.request('/api/create-checkout', {
      body: { planType: 'monthly', customerEmail: null, fbc: null, fbp: null, userAgent: null, originPage: '/' },
      headers: { 'x-forwarded-for': SHARED_ADDRESS },
      ...(cookie ? { cookie } : {}),
    });
  const sessions = async () => (await queryRows<{ count: number }>(t.deps.database.db, sql`SELECT count(*)::int AS count FROM sandbox_checkout_sessions`))[0]?.count;

  it('50 browsers behind it all reach the checkout, each twice', async () => {
    const browsers = Array.from({ length: 50 }, () => `${BROWSER_COOKIE}=${browserId()}`);
    const statuses: number[] = [];
    for (const cookie of [...browsers, ...browsers]) statuses.push((await checkout(cookie)).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(await sessions()).toBe(100);
  });

  it('a client without cookies is counted by the address: refused with why and when, and no provider call', async () => {
    for (let attempt = 0; attempt < ANONYMOUS_CHECKOUTS_PER_ADDRESS.max; attempt += 1) expect((await checkout()).status).toBe(200);
    const refused = await checkout();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(ANONYMOUS_CHECKOUTS_PER_ADDRESS.windowMs / 1000));
    expect(await refused.json()).toEqual({
      error: { code: 'rate_limited', message: 'Too many checkouts were started from your address without cookies. Allow cookies for this site, or please try again in 10 minutes.' },
    });
    expect(await sessions()).toBe(ANONYMOUS_CHECKOUTS_PER_ADDRESS.max);
    // a browser with its id behind the same address is not held back by the script
    expect((await checkout(`${BROWSER_COOKIE}=${browserId()}`)).status).toBe(200);
  });

  it('one browser is counted by its id', async () => {
    const cookie = `${BROWSER_COOKIE}=${browserId()}`;
    for (let attempt = 0; attempt < ANONYMOUS_CHECKOUTS_PER_BROWSER.max; attempt += 1) expect((await checkout(cookie)).status).toBe(200);
    const refused = await checkout(cookie);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'This browser has started too many checkouts in the last few minutes. Please try again in 10 minutes.',
    );
    expect((await checkout(`${BROWSER_COOKIE}=${browserId()}`)).status).toBe(200);
  });

  it('a spent ceiling of the address refuses every browser behind it, saying so', async () => {
    await t.deps.database.db.insert(throttles).values({
      key: `checkout-network:${SHARED_ADDRESS}`,
      hits: ANONYMOUS_CHECKOUTS_PER_SHARED_ADDRESS.max,
      since: clock(),
      blockedUntil: null,
      expiresAt: new Date(clock().getTime() + ANONYMOUS_CHECKOUTS_PER_SHARED_ADDRESS.windowMs),
    });
    const refused = await checkout(`${BROWSER_COOKIE}=${browserId()}`);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/^Too many checkouts were started from your network in the last few minutes\. Please try again in (9|10) minutes\.$/);
    expect(await sessions()).toBe(0);
  });

  it('a malformed id counts as none, and the answer hands the browser a proper one', async () => {
    const answer = await checkout(`${BROWSER_COOKIE}=not-an-id`);
    expect(answer.status).toBe(200);
    const given = answer.headers.getSetCookie().find((cookie) => cookie.startsWith(`${BROWSER_COOKIE}=`));
    expect(given).toMatch(/^candlewise\.browser=[A-Za-z0-9_-]{22}; Max-Age=31536000; Path=\/; HttpOnly; SameSite=Lax$/);
    const [counted] = await queryRows<{ hits: number }>(t.deps.database.db, sql`SELECT hits FROM throttles WHERE key = ${`checkout:${SHARED_ADDRESS}`}`);
    expect(counted?.hits).toBe(1);
  });
});

describe('the browser id', () => {
  const clientDir = mkdtempSync(join(tmpdir(), 'candlewise-browser-id-'));
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><html><head><title>shop</title></head><body><div id="root"></div></body></html>');
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('comes with the first page and is kept; checkouts with it are counted per browser, not by the address', async () => {
    const app = await createApp({ deps: t.deps, services: t.services, jobs: t.jobs }, { clientDir });
    const firstPage = await app.request('/pricing');
    const cookie = cookieFrom(firstPage);
    expect(cookie).toMatch(/^candlewise\.browser=[A-Za-z0-9_-]{22}$/);
    expect((await app.request('/pricing', { headers: { cookie } })).headers.getSetCookie()).toEqual([]);
    const checkout = await t.request('/api/create-checkout', {
      body: { planType: 'monthly', customerEmail: null, fbc: null, fbp: null, userAgent: null, originPage: '/' },
      headers: { 'x-forwarded-for': SHARED_ADDRESS },
      cookie,
    });
    expect(checkout.status).toBe(200);
    const keys = await queryRows<{ key: string }>(t.deps.database.db, sql`SELECT key FROM throttles ORDER BY key`);
    expect(keys.map(({ key }) => key)).toEqual([`checkout-browser:${cookie.split('=')[1]}`, `checkout-network:${SHARED_ADDRESS}`]);
  });
  afterAll(() => rmSync(clientDir, { recursive: true, force: true }));
});
