import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FAKE_SESSION, FAKE_VENDOR, startFakeTradingView, type FakeTradingView } from '../../test-support/fake-tradingview-server';
import { createTradingViewClient, type TradingViewClient } from './tradingview-client';
import { TradingViewError } from './tradingview.port';

const SCRIPT = 'PUB;abc123';
const JULY = new Date('2030-07-15T12:00:00.000Z');
const AUGUST = new Date('2030-08-15T12:00:00.000Z');

let fake: FakeTradingView;
let client: TradingViewClient;
/** What the shop recorded when it granted (null: the shop never granted this user). */
const ours = (expiresAt: Date | null) => ({ expiresAt });

beforeEach(async () => {
  fake = await startFakeTradingView();
  client = createTradingViewClient({ baseUrl: fake.baseUrl, credentials: FAKE_SESSION, scriptIds: [SCRIPT], timeoutMs: 2_000 });
});
afterEach(async () => {
  await fake.close();
});

const calls = () => fake.requests.map((request) => `${request.method} ${request.path.split('?')[0]}`);
const stored = (username: string) => fake.access.get(SCRIPT)?.get(username);

async function failure(promise: Promise<unknown>): Promise<TradingViewError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TradingViewError);
  return error as TradingViewError;
}

describe('checkUsername (GET /username_hint/)', () => {
  it("matches case-insensitively and returns TradingView's spelling", async () => {
    expect(await client.checkUsername('trader_joe')).toBe('Trader_Joe');
    expect(await client.checkUsername('ALICE-CHARTS')).toBe('Alice-Charts');
  });

  it('answers null when only longer names start with it, or nothing matches', async () => {
    expect(await client.checkUsername('trader')).toBeNull();
    expect(await client.checkUsername('nobody_here')).toBeNull();
  });

  it('sends no session cookie to the public hint endpoint', async () => {
    await client.checkUsername('bob');
    expect(fake.requests[0]?.path).toBe('/username_hint/?s=bob');
    expect(fake.requests[0]?.headers.cookie).toBeUndefined();
  });
});

describe('grant', () => {
  it("adds a new user with the expiry, form-encoded, with cookie, Origin and Referer: one call, TradingView's ok confirms it", async () => {
    await expect(client.grant(SCRIPT, 'Trader_Joe', JULY, null)).resolves.toBe('granted');

    expect(calls()).toEqual(['POST /pine_perm/add/']);
    const add = fake.requests[0]!;
    expect(add.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(add.headers.cookie).toBe('sessionid=sid-123; sessionid_sign=sign-456');
    expect(add.headers.origin).toBe(fake.baseUrl);
    expect(add.headers.referer).toBe(`${fake.baseUrl}/`);
    expect(add.form).toEqual({ pine_id: SCRIPT, username_recip: 'Trader_Joe', expiration: '2030-07-15T12:00:00.000Z' });
    expect(stored('Trader_Joe')).toBe('2030-07-15T12:00:00+00:00');
  });

  it('grants without an expiry field for lifetime access', async () => {
    await client.grant(SCRIPT, 'bob', null, null);
    expect(fake.requests[0]!.form).toEqual({ pine_id: SCRIPT, username_recip: 'bob' });
    expect(stored('bob')).toBeNull();
  });

  it('changes the expiry of an existing user with modify_user_expiration, never add', async () => {
    await client.grant(SCRIPT, 'Trader_Joe', JULY, null);
    fake.requests.length = 0;

    await client.grant(SCRIPT, 'Trader_Joe', AUGUST, ours(JULY));

    expect(calls()).toEqual(['POST /pine_perm/list_users/', 'POST /pine_perm/modify_user_expiration/', 'POST /pine_perm/list_users/']);
    expect(fake.requests[1]!.form.expiration).toBe(AUGUST.toISOString());
    expect(stored('Trader_Joe')).toBe('2030-08-15T12:00:00+00:00');
  });

  it('makes no change when the expiry is already right', async () => {
    await client.grant(SCRIPT, 'Trader_Joe', JULY, null);
    fake.requests.length = 0;
    await client.grant(SCRIPT, 'Trader_Joe', JULY, ours(JULY));
    expect(calls()).toEqual(['POST /pine_perm/list_users/']);
  });

  it('follows an "exists" answer to a new grant by reading the access, then modify_user_expiration and a read-back, since exists keeps the old expiry', async () => {
    fake.access.set(SCRIPT, new Map([['Trader_Joe', '2030-01-01T00:00:00+00:00']]));

    await expect(client.grant(SCRIPT, 'Trader_Joe', AUGUST, null)).resolves.toBe('granted');

    expect(calls()).toEqual(['POST /pine_perm/add/', 'POST /pine_perm/list_users/', 'POST /pine_perm/modify_user_expiration/', 'POST /pine_perm/list_users/']);
    expect(fake.requests[1]!.form).toEqual({ pine_id: SCRIPT, username: 'Trader_Joe' });
    expect(stored('Trader_Joe')).toBe('2030-08-15T12:00:00+00:00');
  });

  it('follows an "exists" answer (added meanwhile) to a renewal with modify_user_expiration, since exists keeps the old expiry', async () => {
    fake.access.set(SCRIPT, new Map([['Trader_Joe', '2030-01-01T00:00:00+00:00']]));
    fake.hideOnce.add('Trader_Joe');

    await client.grant(SCRIPT, 'Trader_Joe', AUGUST, ours(JULY));

    expect(calls()).toEqual([
      'POST /pine_perm/list_users/',
      'POST /pine_perm/add/',
      'POST /pine_perm/modify_user_expiration/',
      'POST /pine_perm/list_users/',
    ]);
    expect(stored('Trader_Joe')).toBe('2030-08-15T12:00:00+00:00');
  });

  it('reports a username TradingView does not know as not_found', async () => {
    const error = await failure(client.grant(SCRIPT, 'ghost_user', JULY, null));
    expect(error.kind).toBe('not_found');
    expect(error.message).toContain('User does not exist');
  });

  it('reports a script the vendor does not own as unexpected (403 without login_required)', async () => {
    const error = await failure(client.grant('PUB;not-yours', 'bob', JULY, null));
    expect(error.kind).toBe('unexpected');
    expect(error.status).toBe(403);
  });
});

describe('day one: what TradingView really answers', () => {
  it('sends the headers a browser sends: x-requested-with, accept-language, Origin and Referer', async () => {
    await client.grant(SCRIPT, 'bob', JULY, null);
    for (const request of fake.requests) {
      expect(request.headers).toMatchObject({ 'x-requested-with': 'XMLHttpRequest', 'accept-language': 'en-US,en;q=0.9', origin: fake.baseUrl, referer: `${fake.baseUrl}/` });
    }
  });

  it.each(['', '<html>ok</html>', '{"status":"done"}'])('a 2xx write answer %j without status ok counts as sent; the read-back confirms it', async (answer) => {
    fake.writeAnswer = answer;
    await expect(client.grant(SCRIPT, 'bob', JULY, null)).resolves.toBe('granted');
    expect(calls()).toEqual(['POST /pine_perm/add/', 'POST /pine_perm/list_users/']);
    expect(stored('bob')).toBe('2030-07-15T12:00:00+00:00');
    await expect(client.grant(SCRIPT, 'bob', AUGUST, ours(JULY))).resolves.toBe('granted');
    expect(stored('bob')).toBe('2030-08-15T12:00:00+00:00');
    await expect(client.revoke(SCRIPT, 'bob', ours(AUGUST))).resolves.toBe('revoked');
    expect(stored('bob')).toBeUndefined();
  });

  it('follows a next link on the same host whatever its scheme, on the configured base', async () => {
    const users = new Map<string, string | null>();
    for (let i = 0; i < 40; i += 1) users.set(`member_${i}`, null);
    fake.access.set(SCRIPT, users);
    const host = new URL(fake.baseUrl).host;
    fake.nextOverride = (next) => `https://${host}${next}`; // a proxy in front of TradingView names https
    expect(await client.listUsers(SCRIPT)).toHaveLength(40);
    expect(fake.requests.map((request) => request.path)).toEqual(['/pine_perm/list_users/?limit=30&order_by=-created', '/pine_perm/list_users/?limit=30&order_by=-created&cursor=30']);
  });
});

describe('access the vendor gave by hand', () => {
  it('is never shortened: no expiry, or an expiry later than ours, is left alone', async () => {
    fake.access.set(SCRIPT, new Map([['bob', null], ['Trader_Joe', '2031-01-01T00:00:00+00:00']]));
    await expect(client.grant(SCRIPT, 'bob', JULY, null)).resolves.toBe('left_alone');
    await expect(client.grant(SCRIPT, 'Trader_Joe', JULY, null)).resolves.toBe('left_alone');
    // each add answers "exists" (the expiry untouched) and the listed access is left as it is: no modify
    expect(calls()).toEqual(['POST /pine_perm/add/', 'POST /pine_perm/list_users/', 'POST /pine_perm/add/', 'POST /pine_perm/list_users/']);
    expect(stored('bob')).toBeNull();
    expect(stored('Trader_Joe')).toBe('2031-01-01T00:00:00+00:00');
  });

  it('is extended when the member paid for longer (the access becomes the shop’s)', async () => {
    fake.access.set(SCRIPT, new Map([['bob', '2030-01-01T00:00:00+00:00']]));
    await expect(client.grant(SCRIPT, 'bob', JULY, null)).resolves.toBe('granted');
    expect(stored('bob')).toBe('2030-07-15T12:00:00+00:00');
  });

  it('a user the shop never granted is never removed, not even looked up', async () => {
    fake.access.set(SCRIPT, new Map([['bob', '2030-01-01T00:00:00+00:00']]));
    await expect(client.revoke(SCRIPT, 'bob', null)).resolves.toBe('left_alone');
    expect(fake.requests).toHaveLength(0);
    expect(stored('bob')).toBe('2030-01-01T00:00:00+00:00');
  });

  it('access the shop gave whose expiry the vendor lifted by hand is neither shortened nor removed', async () => {
    await client.grant(SCRIPT, 'bob', JULY, null);
    fake.access.get(SCRIPT)!.set('bob', null); // the vendor made it permanent on TradingView
    await expect(client.grant(SCRIPT, 'bob', AUGUST, ours(JULY))).resolves.toBe('left_alone');
    await expect(client.revoke(SCRIPT, 'bob', ours(JULY))).resolves.toBe('left_alone');
    expect(stored('bob')).toBeNull();
  });
});

describe('what npm run doctor asks', () => {
  it('currentAccount names the account the cookie is signed in to', async () => {
    expect(await client.currentAccount()).toEqual({ username: FAKE_VENDOR });
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/api/v1/user/', headers: { cookie: 'sessionid=sid-123; sessionid_sign=sign-456' } });
  });

  it('currentAccount of a signed-out cookie is session_expired', async () => {
    const stale = createTradingViewClient({ baseUrl: fake.baseUrl, credentials: { sessionId: 'old', sessionSign: 'old' }, scriptIds: [SCRIPT] });
    expect((await failure(stale.currentAccount())).kind).toBe('session_expired');
  });

  it('assertManages passes for the vendor’s script and fails for another author’s', async () => {
    await expect(client.assertManages(SCRIPT)).resolves.toBeUndefined();
    expect((await failure(client.assertManages('PUB;not-yours'))).status).toBe(403);
  });
});

describe('revoke', () => {
  it('removes the user', async () => {
    await client.grant(SCRIPT, 'bob', JULY, null);
    expect(await client.revoke(SCRIPT, 'bob', ours(JULY))).toBe('revoked');
    expect(fake.requests.at(-1)).toMatchObject({ path: '/pine_perm/remove/', form: { pine_id: SCRIPT, username_recip: 'bob' } });
    expect(stored('bob')).toBeUndefined();
  });

  it('treats not_exists as done', async () => {
    await expect(client.revoke(SCRIPT, 'bob', ours(JULY))).resolves.toBe('revoked');
    expect(calls()).toEqual(['POST /pine_perm/list_users/']);
  });
});

describe('listUsers', () => {
  it('follows the next cursor through every page', async () => {
    const users = new Map<string, string | null>();
    for (let i = 0; i < 65; i += 1) users.set(`member_${i}`, i % 2 ? null : '2030-01-01T00:00:00+00:00');
    fake.access.set(SCRIPT, users);

    const listed = await client.listUsers(SCRIPT);

    expect(listed).toHaveLength(65);
    expect(new Set(listed.map((user) => user.username)).size).toBe(65);
    expect(listed.find((user) => user.username === 'member_0')?.expiration).toEqual(new Date('2030-01-01T00:00:00Z'));
    expect(listed.find((user) => user.username === 'member_1')?.expiration).toBeNull();
    expect(fake.requests.map((request) => request.path)).toEqual([
      '/pine_perm/list_users/?limit=30&order_by=-created',
      '/pine_perm/list_users/?limit=30&order_by=-created&cursor=30',
      '/pine_perm/list_users/?limit=30&order_by=-created&cursor=60',
    ]);
  });

  it('never sends the session cookie to another host named by next', async () => {
    const users = new Map<string, string | null>();
    for (let i = 0; i < 40; i += 1) users.set(`member_${i}`, null);
    fake.access.set(SCRIPT, users);
    fake.nextOverride = 'https://evil.example/steal';

    const error = await failure(client.listUsers(SCRIPT));
    expect(error.kind).toBe('unexpected');
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses a listing whose cursor loops back to a page it read, instead of returning part of it', async () => {
    const users = new Map<string, string | null>();
    for (let i = 0; i < 40; i += 1) users.set(`member_${i}`, null);
    fake.access.set(SCRIPT, users);
    fake.nextOverride = '/pine_perm/list_users/?limit=30&order_by=-created&cursor=0';

    const error = await failure(client.listUsers(SCRIPT));
    expect(error.kind).toBe('unexpected');
    expect(error.message).toBe('list_users: the next page repeats an earlier one; the listing is incomplete');
    expect(fake.requests).toHaveLength(2);
  });

  it('refuses a listing its page cap cuts short, instead of returning part of it', async () => {
    const users = new Map<string, string | null>();
    for (let i = 0; i < 100; i += 1) users.set(`member_${i}`, null);
    fake.access.set(SCRIPT, users);
    const capped = createTradingViewClient({ baseUrl: fake.baseUrl, credentials: FAKE_SESSION, scriptIds: [SCRIPT], maxPages: 3 });

    const error = await failure(capped.listUsers(SCRIPT));
    expect(error.kind).toBe('unexpected');
    expect(error.message).toBe('list_users: more than 3 pages; the listing is incomplete');
    expect(fake.requests).toHaveLength(3);
    expect(await createTradingViewClient({ baseUrl: fake.baseUrl, credentials: FAKE_SESSION, scriptIds: [SCRIPT], maxPages: 4 }).listUsers(SCRIPT)).toHaveLength(100);
  });
});

describe("listScripts (the vendor's invite-only scripts)", () => {
  it('reads the ids with the session cookie, then their names in one call', async () => {
    fake.scripts = [
      { id: SCRIPT, name: 'Trend Pro' },
      { id: 'PUB;def456', name: 'Smart Money' },
    ];
    expect(await client.listScripts()).toEqual([
      { id: SCRIPT, name: 'Trend Pro' },
      { id: 'PUB;def456', name: 'Smart Money' },
    ]);
    expect(calls()).toEqual(['GET /pine_perm/list_scripts/', 'POST /pubscripts-get/']);
    expect(fake.requests[0]!.headers.cookie).toBe('sessionid=sid-123; sessionid_sign=sign-456');
    expect(fake.requests[1]!.form).toEqual({ scriptIdPart: `${SCRIPT},PUB;def456`, show_hidden: 'false' });
  });

  it('a vendor without invite-only scripts: an empty list and no second call', async () => {
    expect(await client.listScripts()).toEqual([]);
    expect(calls()).toEqual(['GET /pine_perm/list_scripts/']);
  });

  it('retries a read TradingView answered 503, and gives up after the retries', async () => {
    fake.scripts = [{ id: SCRIPT, name: 'Trend Pro' }];
    const patient = createTradingViewClient({ baseUrl: fake.baseUrl, credentials: FAKE_SESSION, scriptIds: [SCRIPT], retryDelayMs: 0, readRetries: 2 });
    fake.failNext = 2;
    expect(await patient.listScripts()).toEqual([{ id: SCRIPT, name: 'Trend Pro' }]);
    fake.failNext = 3;
    expect((await failure(patient.listScripts())).kind).toBe('network');
    expect(fake.failNext).toBe(0);
  });

  it('an expired session is not retried', async () => {
    fake.sessionExpired = '401';
    const patient = createTradingViewClient({ baseUrl: fake.baseUrl, credentials: FAKE_SESSION, scriptIds: [SCRIPT], retryDelayMs: 0 });
    expect((await failure(patient.listScripts())).kind).toBe('session_expired');
    expect(calls()).toEqual(['GET /pine_perm/list_scripts/']);
  });
});

describe('failures', () => {
  it.each(['401', '403'] as const)('an expired session cookie (%s) is session_expired', async (mode) => {
    fake.sessionExpired = mode;
    expect((await failure(client.grant(SCRIPT, 'bob', JULY, null))).kind).toBe('session_expired');
    expect((await failure(client.revoke(SCRIPT, 'bob', ours(JULY)))).kind).toBe('session_expired');
  });

  it('a wrong cookie is session_expired too', async () => {
    const stale = createTradingViewClient({ baseUrl: fake.baseUrl, credentials: { sessionId: 'old', sessionSign: 'old' }, scriptIds: [SCRIPT] });
    expect((await failure(stale.listUsers(SCRIPT))).kind).toBe('session_expired');
  });

  it('healthCheck reports an expired cookie as its own kind, and ok otherwise', async () => {
    expect(await client.healthCheck()).toEqual({ ok: true });
    fake.sessionExpired = '403';
    expect(await client.healthCheck()).toMatchObject({ ok: false, kind: 'session_expired' });
  });

  it('times out a call that does not answer, as a network failure', async () => {
    fake.delayMs = 1_000;
    const impatient = createTradingViewClient({ baseUrl: fake.baseUrl, credentials: FAKE_SESSION, scriptIds: [SCRIPT], timeoutMs: 100 });
    const error = await failure(impatient.checkUsername('bob'));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/timed out after 100 ms/);
  });

  it('an unreachable server is a network failure', async () => {
    await fake.close();
    const error = await failure(client.checkUsername('bob'));
    expect(error.kind).toBe('network');
  });

  it('an answer that is not JSON is unexpected', async () => {
    const html = createTradingViewClient({
      baseUrl: fake.baseUrl,
      credentials: FAKE_SESSION,
      scriptIds: [SCRIPT],
      fetch: async () => new Response('<html>Sign in</html>', { status: 200, headers: { 'content-type': 'text/html' } }),
    });
    expect((await failure(html.checkUsername('bob'))).kind).toBe('unexpected');
  });
});
