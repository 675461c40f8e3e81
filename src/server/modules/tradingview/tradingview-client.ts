import { z } from 'zod';
import { grantConfirmed, revokeAccess, type PinePermOps } from './pine-permissions';
import { isThrottle, TradingViewError, toTradingViewError, type ListOptions, type ScriptAccess, type TradingViewPort } from './tradingview.port';

export type TradingViewClientOptions = {
  /** https://www.tradingview.com, or a local server in tests. */
  baseUrl: string;
  credentials: { sessionId: string; sessionSign: string };
  /** Used by the health check, which needs a script the vendor owns. */
  scriptIds: readonly string[];
  timeoutMs?: number;
  /** Tries after the first for reads that failed on the network or with 429/5xx (safe to repeat); a 429 waits its Retry-After. */
  readRetries?: number;
  /** Wait before each retry of a read, doubled every time. */
  retryDelayMs?: number;
  fetch?: typeof fetch;
  /** Pages one listing may take before it is refused as cut short; MAX_PAGES unless a test needs a small cap. */
  maxPages?: number;
};

// TradingView caps a page at about 30 users; the page cap (300,000 users) guards against a cursor
// that never ends without repeating itself (a repeated page is refused at once).
const PAGE_SIZE = 30;
const MAX_PAGES = 10_000;
const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_READ_RETRIES = 2;
const DEFAULT_RETRY_DELAY_MS = 1_000;
/** A 429 without a readable Retry-After waits this long. */
const DEFAULT_RETRY_AFTER_MS = 30_000;
/** A Retry-After longer than this is read as this (a wrong header must not stop the shop for a day). */
const MAX_RETRY_AFTER_MS = 15 * 60_000;

/** Retry-After in ms: seconds, or an HTTP date. */
function retryAfterMs(header: string | null, now: number): number {
  const value = header?.trim() ?? '';
  const seconds = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - now;
  const wait = Number.isFinite(seconds) ? Math.max(0, seconds) : DEFAULT_RETRY_AFTER_MS;
  return Math.min(value ? wait : DEFAULT_RETRY_AFTER_MS, MAX_RETRY_AFTER_MS);
}

const hintSchema = z.array(z.looseObject({ username: z.string() }));
const listSchema = z.looseObject({
  results: z.array(z.looseObject({ username: z.string(), expiration: z.string().nullable().optional() })),
  next: z.string().nullable().optional(),
});
const statusSchema = z.looseObject({ status: z.string() });
const accountSchema = z.looseObject({ username: z.string().min(1) });
const scriptIdsSchema = z.array(z.string());
const scriptDetailsSchema = z.array(z.looseObject({ scriptIdPart: z.string(), scriptName: z.string().nullable().optional() }));

type Answer = { status: number; body: unknown; text: string };

/** What a browser on TradingView's own pages sends with these calls; some answers differ without them. */
const BROWSER_HEADERS = {
  accept: 'application/json, text/plain, */*',
  'accept-language': 'en-US,en;q=0.9',
  'x-requested-with': 'XMLHttpRequest',
} as const;

/** The real client, plus what `npm run doctor` asks of it. */
export type TradingViewClient = TradingViewPort & {
  /** Throws unless the account may manage this script's access list (it is the author). */
  assertManages: (scriptId: string) => Promise<void>;
};

/**
 * The real adapter: TradingView's invite-only permission endpoints, authenticated with the
 * vendor's session cookie from configuration (password login meets 2FA and captchas).
 */
export function createTradingViewClient(options: TradingViewClientOptions): TradingViewClient {
  const base = new URL(options.baseUrl.replace(/\/?$/, '/'));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const fetchImpl = options.fetch ?? fetch;
  const cookie = `sessionid=${options.credentials.sessionId}; sessionid_sign=${options.credentials.sessionSign}`;

  /** `json: false` accepts any 2xx body (write calls: their status, or a read-back, confirms them). */
  async function call(target: URL, init: { method: 'GET' | 'POST'; form?: Record<string, string>; auth: boolean; json?: boolean }): Promise<Answer> {
    // The cookie goes to TradingView only, never to a host named in an answer (a `next` link).
    if (target.origin !== base.origin) throw new TradingViewError('unexpected', `refusing to call ${target.origin}`);
    const headers: Record<string, string> = {
      ...BROWSER_HEADERS,
      origin: base.origin,
      referer: `${base.origin}/`,
    };
    if (init.auth) headers.cookie = cookie;
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const label = `${init.method} ${target.pathname}`;
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(target, {
        method: init.method,
        headers,
        body: init.form ? new URLSearchParams(init.form).toString() : undefined,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      throw new TradingViewError('network', timedOut ? `${label} timed out after ${timeoutMs} ms` : `${label} failed: ${describe(error)}`);
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const detail = detailOf(body) ?? text.slice(0, 200);
    const status = response.status;
    if (status === 401) throw new TradingViewError('session_expired', `${label}: 401 ${detail}`, status);
    if (status === 403 && /login_required|authentication credentials/i.test(text)) {
      throw new TradingViewError('session_expired', `${label}: 403 ${detail}`, status);
    }
    if (status >= 300 && status < 400) {
      const location = response.headers.get('location') ?? '';
      const kind = /sign-?in|login/i.test(location) ? 'session_expired' : 'unexpected';
      throw new TradingViewError(kind, `${label}: redirected to ${location || '(nowhere)'}`, status);
    }
    if (status === 404) throw new TradingViewError('not_found', `${label}: 404 ${detail}`, status);
    if (status === 429) {
      throw new TradingViewError('network', `${label}: 429 ${detail}`, status, retryAfterMs(response.headers.get('retry-after'), Date.now()));
    }
    if (status >= 500) throw new TradingViewError('network', `${label}: ${status} ${detail}`, status);
    if (status >= 400) {
      const kind = /not found|does not exist|no such user|invalid user/i.test(detail) ? 'not_found' : 'unexpected';
      throw new TradingViewError(kind, `${label}: ${status} ${detail}`, status);
    }
    if (body === undefined && init.json !== false) throw new TradingViewError('unexpected', `${label}: answer is not JSON (${text.slice(0, 80)})`, status);
    return { status, body, text };
  }

  /**
   * A read whose failure may pass (network, 429, 5xx): tried again after a growing wait, or after
   * a 429's Retry-After. Writes are never retried here: the grant's confirmation (TradingView's ok,
   * a read-back, the audit) and the reconciler's back-off decide those.
   */
  async function withReadRetries<T>(read: () => Promise<T>): Promise<T> {
    const retries = options.readRetries ?? DEFAULT_READ_RETRIES;
    const delayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await read();
      } catch (error) {
        if (!(error instanceof TradingViewError) || error.kind !== 'network' || attempt >= retries) throw error;
        const wait = isThrottle(error) ? (error.retryAfterMs ?? delayMs) : delayMs * 2 ** attempt;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  function parse<T>(schema: z.ZodType<T>, answer: Answer, what: string): T {
    const parsed = schema.safeParse(answer.body);
    if (!parsed.success) throw new TradingViewError('unexpected', `${what}: unexpected answer ${answer.text.slice(0, 200)}`);
    return parsed.data;
  }

  /** The `status` field of a 2xx write answer, when it has one ("ok", "exists", "not_exists"…). */
  function statusOf(answer: Answer): string | null {
    const parsed = statusSchema.safeParse(answer.body);
    return parsed.success ? parsed.data.status : null;
  }

  /**
   * A `next` cursor on TradingView's own host is followed on our base (scheme and port included:
   * answers behind a proxy name http:// links); one on another host is refused.
   */
  function nextPage(next: string): URL {
    const target = new URL(next, base);
    if (target.hostname !== base.hostname) throw new TradingViewError('unexpected', `list_users: refusing a next link to ${target.host}`);
    return new URL(`${target.pathname}${target.search}`, base);
  }

  function permissionForm(scriptId: string, username: string, expiration?: Date | null): Record<string, string> {
    const form: Record<string, string> = { pine_id: scriptId, username_recip: username };
    // No expiration field means access without expiry.
    if (expiration) form.expiration = expiration.toISOString();
    return form;
  }

  async function assertManages(scriptId: string): Promise<void> {
    await call(new URL('pine_perm/list_users/?limit=1&order_by=-created', base), { method: 'POST', form: { pine_id: scriptId }, auth: true });
  }

  /** Every page of a script's list; each page is a read of its own, retried alone. */
  async function listUsers(scriptId: string, username?: string, list: ListOptions = {}): Promise<ScriptAccess[]> {
    const form: Record<string, string> = { pine_id: scriptId };
    if (username) form.username = username;
    const users: ScriptAccess[] = [];
    const maxPages = options.maxPages ?? MAX_PAGES;
    const seen = new Set<string>();
    let target: URL | null = new URL(`pine_perm/list_users/?limit=${PAGE_SIZE}&order_by=-created`, base);
    for (let page = 0; target && page < maxPages; page += 1) {
      // a list cut short would read as access removed: the caller must not act on it
      if (seen.has(target.href)) throw new TradingViewError('unexpected', 'list_users: the next page repeats an earlier one; the listing is incomplete');
      seen.add(target.href);
      await list.beforePage?.();
      const pageUrl: URL = target;
      const data: z.infer<typeof listSchema> = await withReadRetries(async () => parse(listSchema, await call(pageUrl, { method: 'POST', form, auth: true }), 'list_users'));
      for (const entry of data.results) users.push({ username: entry.username, expiration: parseDate(entry.expiration ?? null) });
      target = data.next ? nextPage(data.next) : null;
    }
    if (target) throw new TradingViewError('unexpected', `list_users: more than ${maxPages} pages; the listing is incomplete`);
    return users;
  }

  const ops: PinePermOps = {
    listUsers: (scriptId, username) => listUsers(scriptId, username),
    // Only TradingView's explicit `status: ok` is a grant made; any other 2xx counts as sent and the
    // grant reads it back, so an answer without a status cannot fail a grant for ever.
    async add(scriptId, username, expiration) {
      const answer = await call(new URL('pine_perm/add/', base), { method: 'POST', form: permissionForm(scriptId, username, expiration), auth: true, json: false });
      const status = statusOf(answer);
      return status === 'ok' || status === 'exists' ? status : 'sent';
    },
    async modifyExpiration(scriptId, username, expiration) {
      await call(new URL('pine_perm/modify_user_expiration/', base), { method: 'POST', form: permissionForm(scriptId, username, expiration), auth: true, json: false });
    },
    async remove(scriptId, username) {
      const answer = await call(new URL('pine_perm/remove/', base), { method: 'POST', form: permissionForm(scriptId, username), auth: true, json: false });
      return statusOf(answer) === 'not_exists' ? 'not_exists' : 'ok';
    },
  };

  return {
    kind: 'tradingview',
    async checkUsername(name) {
      const target = new URL('username_hint/', base);
      target.searchParams.set('s', name);
      const hints = parse(hintSchema, await call(target, { method: 'GET', auth: false }), 'username_hint');
      const wanted = name.toLowerCase();
      // Grants are case-sensitive: keep TradingView's spelling, not what the member typed.
      return hints.find((hint) => hint.username.toLowerCase() === wanted)?.username ?? null;
    },
    // The ids of the vendor's invite-only scripts, then their public details (names) in one call.
    listScripts: () =>
      withReadRetries(async () => {
        const ids = parse(scriptIdsSchema, await call(new URL('pine_perm/list_scripts/', base), { method: 'GET', auth: true }), 'list_scripts');
        if (ids.length === 0) return [];
        const answer = await call(new URL('pubscripts-get/', base), { method: 'POST', form: { scriptIdPart: ids.join(','), show_hidden: 'false' }, auth: true });
        const names = new Map(parse(scriptDetailsSchema, answer, 'pubscripts-get').map((script) => [script.scriptIdPart, script.scriptName]));
        // A script whose details are missing is still the vendor's: listed under its id.
        return [...new Set(ids)].map((id) => ({ id, name: names.get(id)?.trim() || id }));
      }),
    listUsers,
    grant: (scriptId, username, expiration, shop) => grantConfirmed(ops, scriptId, username, expiration, shop),
    revoke: (scriptId, username, shop) => revokeAccess(ops, scriptId, username, shop),
    async currentAccount() {
      const answer = await call(new URL('api/v1/user/', base), { method: 'GET', auth: true });
      const parsed = accountSchema.safeParse(answer.body);
      // Without a signed-in session TradingView answers an anonymous user (no username).
      if (!parsed.success) throw new TradingViewError('session_expired', 'the session cookie is not signed in to any TradingView account');
      return { username: parsed.data.username };
    },
    assertManages,
    async healthCheck() {
      const scriptId = options.scriptIds[0];
      if (!scriptId) return { ok: false, kind: 'unexpected', message: 'no TradingView script id is configured' };
      try {
        await assertManages(scriptId);
        return { ok: true };
      } catch (error) {
        const failure = toTradingViewError(error);
        return { ok: false, kind: failure.kind, message: failure.message };
      }
    },
  };
}

function detailOf(body: unknown): string | null {
  if (body && typeof body === 'object' && 'detail' in body) {
    const detail = (body as { detail: unknown }).detail;
    return typeof detail === 'string' ? detail : JSON.stringify(detail);
  }
  return null;
}

function parseDate(value: string | null): Date | null {
  if (value === null || value === '') return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new TradingViewError('unexpected', `unreadable expiration "${value}"`);
  return date;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}
