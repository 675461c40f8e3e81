// Test helper: a local HTTP server that answers like TradingView's invite-only endpoints
// (username_hint, the pine_perm calls and the vendor's script list), so the real client is
// exercised over real HTTP.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = { method: string; path: string; headers: IncomingMessage['headers']; form: Record<string, string> };

export type FakeTradingView = {
  baseUrl: string;
  /** Script id → username → expiration (ISO) or null. */
  access: Map<string, Map<string, string | null>>;
  requests: RecordedRequest[];
  /** Next list_users answers leave these usernames out once (someone adds them meanwhile). */
  hideOnce: Set<string>;
  /** When set, every authenticated call answers like an expired session cookie. */
  sessionExpired: '401' | '403' | null;
  /** Answers every call this late (ms), to test timeouts. */
  delayMs: number;
  /** Overrides the `next` link of list_users answers: a fixed link (e.g. another host) or a rewrite of the real one. */
  nextOverride: string | ((next: string) => string) | null;
  /** Answers add / modify / remove with this 2xx body (the change is still made), e.g. '' or '{"status":"done"}'. */
  writeAnswer: string | null;
  /** When false, the account endpoint answers 404 (TradingView moved it). */
  accountEndpoint: boolean;
  /** Scripts another author published: the vendor's session may not manage them (403). */
  foreignScripts: Set<string>;
  /** pine_perm calls this answers with a 503 (TradingView down mid-import), by path and form; null: none. */
  failWhen: ((path: string, form: Record<string, string>) => boolean) | null;
  /** Replaces the username_hint answer (e.g. a login wall). */
  hintAnswer: { status: number; body: unknown } | null;
  /** The vendor's published invite-only scripts (list_scripts gives their ids, pubscripts-get their names). */
  scripts: { id: string; name: string }[];
  /** The next this many calls answer 503, as TradingView does under load. */
  failNext: number;
  /** The next this many adds answer ok without adding anyone (an add TradingView lost). */
  loseAdds: number;
  /** The next this many adds are made but answered 502 (the answer lost on its way back). */
  loseAddAnswers: number;
  /** Permission calls allowed per second; beyond it 429 with Retry-After, as TradingView throttles. */
  callsPerSecond: number | null;
  /** The Retry-After a throttled call is told (seconds). */
  retryAfterSeconds: number;
  /** The share of permission calls (0…1) answered 500 without any change. */
  failureRate: number;
  /** Calls answered 429 so far. */
  throttled: number;
  /** How many times each username (lower case) was added to a script: a grant made twice shows as 2. */
  additions: Map<string, number>;
  close: () => Promise<void>;
};

export const FAKE_SESSION = { sessionId: 'sid-123', sessionSign: 'sign-456' };
/** The vendor account FAKE_SESSION is signed in to. */
export const FAKE_VENDOR = 'Candlewise_Vendor';
const ACCOUNTS = ['Trader_Joe', 'trader_joey', 'Alice-Charts', 'bob'];

export async function startFakeTradingView(options: { accounts?: string[] } = {}): Promise<FakeTradingView> {
  const accounts = options.accounts ?? ACCOUNTS;
  const fake: FakeTradingView = {
    baseUrl: '',
    access: new Map(),
    requests: [],
    hideOnce: new Set(),
    sessionExpired: null,
    delayMs: 0,
    nextOverride: null,
    writeAnswer: null,
    foreignScripts: new Set(['PUB;not-yours']),
    accountEndpoint: true,
    hintAnswer: null,
    scripts: [],
    failNext: 0,
    loseAdds: 0,
    loseAddAnswers: 0,
    failWhen: null,
    callsPerSecond: null,
    retryAfterSeconds: 1,
    failureRate: 0,
    additions: new Map(),
    throttled: 0,
    close: async () => {},
  };

  const script = (id: string) => {
    let users = fake.access.get(id);
    if (!users) fake.access.set(id, (users = new Map()));
    return users;
  };
  const throttled = { second: 0, calls: 0 };
  const find = (users: Map<string, string | null>, name: string) => [...users.keys()].find((key) => key.toLowerCase() === name.toLowerCase());

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await new Promise<string>((resolve) => {
      let data = '';
      req.on('data', (chunk: Buffer) => (data += chunk.toString()));
      req.on('end', () => resolve(data));
    });
    const form = Object.fromEntries(new URLSearchParams(raw));
    fake.requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers: req.headers, form });
    if (fake.delayMs) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
    if (fake.failNext > 0) {
      fake.failNext -= 1;
      res.writeHead(503, { 'content-type': 'text/html' });
      return res.end('<html>Service Unavailable</html>');
    }
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const written = (body: unknown) => {
      if (fake.writeAnswer === null) return json(200, body);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(fake.writeAnswer);
    };

    if (req.method === 'GET' && url.pathname === '/username_hint/') {
      if (fake.hintAnswer) return json(fake.hintAnswer.status, fake.hintAnswer.body);
      const s = (url.searchParams.get('s') ?? '').toLowerCase();
      return json(200, accounts.filter((name) => name.toLowerCase().startsWith(s)).map((username) => ({ username, userpic: '' })));
    }
    const signedIn = !fake.sessionExpired && req.headers.cookie === `sessionid=${FAKE_SESSION.sessionId}; sessionid_sign=${FAKE_SESSION.sessionSign}`;
    if (req.method === 'GET' && url.pathname === '/api/v1/user/' && fake.accountEndpoint) {
      // TradingView answers an anonymous user when the cookie is not signed in.
      return json(200, signedIn ? { id: 4242, username: FAKE_VENDOR, is_pro: true } : { id: null, is_authenticated: false });
    }
    if (req.method === 'POST' && url.pathname === '/pubscripts-get/') {
      const wanted = (form.scriptIdPart ?? '').split(',');
      return json(
        200,
        fake.scripts.filter((script) => wanted.includes(script.id)).map((script) => ({ scriptIdPart: script.id, scriptName: script.name, scriptAccess: 'invite_only', version: '1' })),
      );
    }
    if (!url.pathname.startsWith('/pine_perm/')) return json(404, { detail: 'Not found.' });

    if (fake.failWhen?.(url.pathname, form)) return json(503, { detail: 'Service Unavailable' });
    if (fake.sessionExpired === '401') return json(401, { detail: 'Authentication credentials were not provided.' });
    if (fake.sessionExpired === '403') return json(403, { detail: 'Please sign in', code: 'login_required' });
    if (!signedIn) return json(403, { detail: 'login_required' });
    if (req.method === 'GET' && url.pathname === '/pine_perm/list_scripts/') return json(200, fake.scripts.map((script) => script.id));
    if (fake.callsPerSecond !== null) {
      const second = Math.floor(Date.now() / 1000);
      if (second !== throttled.second) Object.assign(throttled, { second, calls: 0 });
      if (++throttled.calls > fake.callsPerSecond) {
        fake.throttled += 1;
        res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(fake.retryAfterSeconds) });
        return res.end(JSON.stringify({ detail: `Request was throttled. Expected available in ${fake.retryAfterSeconds} seconds.` }));
      }
    }
    if (fake.failureRate > 0 && Math.random() < fake.failureRate) return json(500, { detail: 'Internal server error' });
    if (!form.pine_id) return json(422, { detail: 'pine_id is required' });
    if (fake.foreignScripts.has(form.pine_id)) return json(403, { detail: 'You are not the owner of this script' });
    const users = script(form.pine_id);

    switch (url.pathname) {
      case '/pine_perm/list_users/': {
        const limit = Number(url.searchParams.get('limit') ?? '20');
        const offset = Number(url.searchParams.get('cursor') ?? '0');
        const filter = form.username?.toLowerCase();
        const matching = [...users.entries()]
          .filter(([name]) => !fake.hideOnce.has(name) && (!filter || name.toLowerCase().includes(filter)))
          .map(([username, expiration], index) => ({ id: index + 1, username, expiration, created: '2025-01-01T00:00:00+00:00' }));
        fake.hideOnce.clear();
        const page = matching.slice(offset, offset + limit);
        const more = offset + limit < matching.length;
        const real = `/pine_perm/list_users/?limit=${limit}&order_by=-created&cursor=${offset + limit}`;
        const override = fake.nextOverride;
        const next = more ? (typeof override === 'function' ? override(real) : (override ?? real)) : null;
        return json(200, { results: page, next });
      }
      case '/pine_perm/add/': {
        if (!accounts.some((name) => name.toLowerCase() === form.username_recip?.toLowerCase())) {
          return json(422, { detail: 'User does not exist' });
        }
        if (find(users, form.username_recip ?? '')) return json(200, { status: 'exists' });
        if (fake.loseAdds > 0) {
          fake.loseAdds -= 1;
          return written({ status: 'ok' });
        }
        users.set(form.username_recip ?? '', form.expiration ? toTradingViewDate(form.expiration) : null);
        const added = (form.username_recip ?? '').toLowerCase();
        fake.additions.set(added, (fake.additions.get(added) ?? 0) + 1);
        if (fake.loseAddAnswers > 0) {
          fake.loseAddAnswers -= 1;
          res.writeHead(502, { 'content-type': 'text/html' });
          return res.end('<html>Bad Gateway</html>');
        }
        return written({ status: 'ok' });
      }
      case '/pine_perm/modify_user_expiration/': {
        const name = find(users, form.username_recip ?? '');
        if (!name) return json(422, { detail: 'User does not exist' });
        users.set(name, form.expiration ? toTradingViewDate(form.expiration) : null);
        return written({ status: 'ok' });
      }
      case '/pine_perm/remove/': {
        const name = find(users, form.username_recip ?? '');
        if (!name) return json(200, { status: 'not_exists' });
        users.delete(name);
        return written({ status: 'ok' });
      }
      default:
        return json(404, { detail: 'Not found.' });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.baseUrl = `http://127.0.0.1:${port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

// TradingView lists expirations with an explicit offset rather than 'Z'.
function toTradingViewDate(iso: string): string {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
