// Hostile requests that cost the server without signing in, tried over a real socket as an
// attacker would: deeply nested JSON (a recursive walk answered 500 after half a second of CPU,
// before any rate limit) and anonymous session checks that each left 14 KB in the read cache.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_ERROR_MESSAGES, jsonTooDeepMessage } from '@shared/error-messages';
import { createReadCache, type ReadCache } from '@shared/read-cache';
import { JSON_MAX_DEPTH } from '@shared/json-limits';
import { createApp } from '../app';
import { compose } from '../composition';
import { WEBHOOK_JSON_MAX_DEPTH } from '../http/json-depth';
import { listen } from '../test-support/attack-kit';
import { TEST_ORIGIN, createTestApp, signUp, type TestApp } from '../test-support/test-app';

const randomAddress = () => `198.51.100.${1 + Math.floor(Math.random() * 254)}`;

/** JSON `levels` deep, with brackets inside a string at the top that must not count. */
function nestedJson(levels: number): string {
  if (levels > 1000) return `${'['.repeat(levels)}${']'.repeat(levels)}`;
  let inner = '[]';
  for (let level = 2; level < levels; level += 1) inner = level % 2 ? `[${inner}]` : `{"next":${inner}}`;
  return `{"note":"${'[{'.repeat(100)}","next":${inner}}`;
}

// better-auth's routes sit behind one wildcard; these are the ones a browser posts JSON to
const AUTH_POSTS = ['/api/auth/sign-in/email', '/api/auth/request-password-reset', '/api/auth/reset-password', '/api/auth/change-password', '/api/auth/update-user', '/api/auth/sign-out'];
const MUST_COVER = [
  '/api/auth/sign-in/email',
  '/api/auth/sign-up/email',
  '/api/auth/request-password-reset',
  '/api/create-checkout',
  '/api/verify-payment',
  '/api/activate-existing-subscription',
  '/api/tradingview/activate',
  '/api/admin/members/x/comp',
  '/api/webhooks/stripe',
];

/** Every route of the app that takes a body, its path parameters filled in, sign-out last. */
function bodyRoutes(t: TestApp): { method: string; path: string }[] {
  const found = new Map<string, { method: string; path: string }>();
  for (const { method, path } of t.app.routes) {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
    const paths = path === '/api/auth/*' ? AUTH_POSTS : path.includes('*') ? [] : [path.replace(/:\w+/g, 'x')];
    for (const concrete of paths) found.set(`${method} ${concrete}`, { method, path: concrete });
  }
  return [...found.values()].sort((a, b) => Number(a.path.endsWith('/sign-out')) - Number(b.path.endsWith('/sign-out')));
}

const depthLimitOf = (path: string) => (path.startsWith('/api/webhooks/') ? WEBHOOK_JSON_MAX_DEPTH : JSON_MAX_DEPTH);

describe('deeply nested JSON', () => {
  let t: TestApp;
  let server: Awaited<ReturnType<typeof listen>>;
  let operator: string;
  let routes: { method: string; path: string }[];
  beforeAll(async () => {
    t = await createTestApp({ ADMIN_EMAILS: 'ops@example.com' });
    operator = await signUp(t, 'ops@example.com');
    server = await listen(t.app.fetch);
    routes = bodyRoutes(t);
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  const send = (method: string, path: string, body: BodyInit, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { origin: TEST_ORIGIN, 'content-type': 'application/json', 'x-forwarded-for': randomAddress(), cookie: operator, ...headers },
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);

  it('walks every route that takes a body, the ones attacked included', () => {
    const paths = routes.map(({ path }) => path);
    for (const path of MUST_COVER) expect(paths).toContain(path);
  });

  it('refuses 30,000 nested arrays on every route with 400 and the reason, never a 5xx', async () => {
    const body = nestedJson(30_000);
    const answers: string[] = [];
    for (const { method, path } of routes) {
      const response = await send(method, path, body);
      answers.push(`${method} ${path} ${response.status} ${JSON.stringify(await response.json())}`);
    }
    const expected = (path: string) => JSON.stringify({ error: { code: 'json_too_deep', message: path.startsWith('/api/webhooks/') ? jsonTooDeepMessage(WEBHOOK_JSON_MAX_DEPTH) : SERVER_ERROR_MESSAGES.json_too_deep } });
    expect(answers).toEqual(routes.map(({ method, path }) => `${method} ${path} 400 ${expected(path)}`));
  });

  it('refuses it whatever the body claims to be and however it arrives', async () => {
    const body = nestedJson(30_000);
    const asText = await send('POST', '/api/auth/sign-in/email', body, { 'content-type': 'text/plain' });
    expect(asText.status).toBe(400);
    expect(await asText.json()).toMatchObject({ error: { code: 'json_too_deep' } });
    // no length given: the body limit reads it first, in chunks
    const bytes = new TextEncoder().encode(body);
    const streamed = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 4096) controller.enqueue(bytes.slice(at, at + 4096));
        controller.close();
      },
    });
    const chunked = await send('POST', '/api/auth/sign-up/email', streamed);
    expect(chunked.status).toBe(400);
    expect(await chunked.json()).toMatchObject({ error: { code: 'json_too_deep', message: SERVER_ERROR_MESSAGES.json_too_deep } });
  });

  it('refuses one level past the limit and lets the limit itself through to the route, on every route', async () => {
    const refused: string[] = [];
    const passed: string[] = [];
    for (const { method, path } of routes) {
      const limit = depthLimitOf(path);
      const over = await send(method, path, nestedJson(limit + 1));
      refused.push(`${method} ${path} ${over.status} ${((await over.json()) as { error?: { code?: string } }).error?.code}`);
      const at = await send(method, path, nestedJson(limit));
      const answer = (await at.text()).slice(0, 200);
      // the route answers as it does to any body it cannot use: never with a 5xx, never as too deep
      passed.push(`${method} ${path} ${at.status < 500 && !answer.includes('json_too_deep') ? 'handled' : `${at.status} ${answer}`}`);
    }
    expect(refused).toEqual(routes.map(({ method, path }) => `${method} ${path} 400 json_too_deep`));
    expect(passed).toEqual(routes.map(({ method, path }) => `${method} ${path} handled`));
  });
});

describe('anonymous session checks with junk', () => {
  const MAX_BYTES = 256 * 1024;
  const JUNK = 7 * 1024;
  let t: TestApp;
  let reads: ReadCache;
  let server: Awaited<ReturnType<typeof listen>>;
  let member: string;
  beforeAll(async () => {
    t = await createTestApp();
    // a minute: what is kept here stays for the whole test unless the cache itself lets it go
    reads = createReadCache({ ttlMs: 60_000, changes: t.deps.database.writes, maxBytes: MAX_BYTES });
    const app = await createApp(compose(t.deps), { clientDir: null, reads });
    server = await listen(app.fetch);
    member = await signUp(t, 'member@example.com');
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  const junk = () => randomBytes(JUNK * 0.75).toString('base64url');
  const getSession = (cookie: string, query = '') =>
    fetch(`${server.url}/api/auth/get-session${query}`, { headers: { cookie, 'x-forwarded-for': randomAddress() } });

  it('keeps nothing for cookies that name no session, however many', async () => {
    for (let request = 0; request < 300; request += 1) {
      const cookie = request % 2 ? `candlewise.session_token=${junk()}` : `tracking=${junk()}`;
      const response = await getSession(cookie, `?junk=${junk()}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toBeNull();
    }
    expect(reads.size).toBe(0);
    expect(reads.bytes).toBe(0);
  });

  it("still keeps a member's session, and its junk-padded copies stay under the byte bound", async () => {
    const first = await getSession(member);
    expect(((await first.json()) as { user: { email: string } }).user.email).toBe('member@example.com');
    expect(reads.size).toBe(1);
    for (let request = 0; request < 100; request += 1) {
      const response = await getSession(`${member}; junk=${junk()}`, `?junk=${junk()}`);
      expect(((await response.json()) as { user: { email: string } }).user.email).toBe('member@example.com');
    }
    expect(reads.bytes).toBeGreaterThan(0);
    expect(reads.bytes).toBeLessThanOrEqual(MAX_BYTES);
  });

  it('stays under the byte bound when junk session cookies reach the API', async () => {
    for (let request = 0; request < 100; request += 1) {
      const response = await fetch(`${server.url}/api/access?junk=${junk()}`, { headers: { cookie: `candlewise.session_token=${junk()}` } });
      expect(response.status).toBeLessThan(500);
    }
    expect(reads.bytes).toBeLessThanOrEqual(MAX_BYTES);
  });
});
