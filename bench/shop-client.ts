// The benches' buyers and operators: a browser with its own cookies (and, behind the trusted
// proxy, its own client address) that signs up, buys with the sandbox's 4242 card and signs in,
// as a person does through the pages.

import { discordLinkRequest, LINK_SOCIAL_PATH } from '../src/shared/discord-contract';
import { SANDBOX_DISCORD_PATHS } from '../src/shared/sandbox-discord-contract';

export type Browser = {
  base: string;
  /** The cookie header this browser sends (set from every answer's Set-Cookie). */
  cookie: () => string;
  /** Throws on an answer that is not 2xx, with its status and body. */
  post: <T = unknown>(path: string, body: unknown) => Promise<T>;
  get: <T = unknown>(path: string) => Promise<T>;
  /** Any request; the answer as it came (the caller reads status and body), a redirect not followed. */
  fetch: (path: string, init?: { method?: string; body?: unknown }) => Promise<Response>;
};

/** How long a patient buyer keeps trying again when the shop is down or answers 5xx (the chaos bench). */
export type Patience = { retryForMs: number; onRetry?: (status: string) => void };
const RETRIED_STATUSES = new Set([500, 502, 503, 504]);

/**
 * A browser on `base`; `address` goes in x-forwarded-for (the server must trust the bench as its
 * proxy). With `patience` a request that finds the shop down, or answered 5xx, is sent again
 * (as a buyer reloads or clicks again) until it is answered otherwise or the patience runs out.
 * `origin`: the shop's public address, where several instances stand behind one (what a browser
 * sends, and what better-auth checks); the instance's own address by default.
 */
export function browser(base: string, address?: string, patience?: Patience, origin = base): Browser {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  async function send(path: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
    const giveUpAt = Date.now() + (patience?.retryForMs ?? 0);
    for (let attempt = 1; ; attempt += 1) {
      const response = await sendOnce(path, init).catch((error: unknown) => {
        if (Date.now() >= giveUpAt) throw error;
        return null;
      });
      if (response && (!RETRIED_STATUSES.has(response.status) || Date.now() >= giveUpAt)) return response;
      patience?.onRetry?.(response ? String(response.status) : 'down');
      await new Promise((done) => setTimeout(done, Math.min(2_000, 250 * attempt)));
    }
  }
  async function sendOnce(path: string, init: { method?: string; body?: unknown }): Promise<Response> {
    const response = await fetch(`${base}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        origin,
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(jar.size ? { cookie: cookie() } : {}),
        ...(address ? { 'x-forwarded-for': address } : {}),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      // a browser keeps the cookies a redirect sets (the OAuth callback's session): so does the jar
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }
  async function ok<T>(path: string, init: { method?: string; body?: unknown }): Promise<T> {
    const response = await send(path, init);
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }
  return {
    base,
    cookie,
    fetch: send,
    post: (path, body) => ok(path, { method: 'POST', body }),
    get: (path) => ok(path, { method: 'GET' }),
  };
}

export const PASSWORD = 'Bench-Passw0rd';
const CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Bench Buyer' };

/** Starts a checkout for `planType` and pays it with the sandbox's 4242 card; returns the checkout's id. */
export async function buy(visitor: Browser, planType: string, email: string, signedIn: boolean): Promise<string> {
  const { sessionId } = await visitor.post<{ sessionId: string }>('/api/create-checkout', {
    planType,
    customerEmail: signedIn ? email : null,
    fbc: null,
    fbp: null,
    userAgent: 'bench',
    originPage: '/',
  });
  await visitor.post(`/api/sandbox/checkout/${sessionId}/pay`, { email, ...CARD }).catch(async (error: unknown) => {
    // a payment sent again after its answer was lost: the checkout page, reloaded, shows it paid
    if (!String(error).includes(': 409 ') || (await visitor.get<{ status: string }>(`/api/sandbox/checkout/${sessionId}`)).status !== 'complete') throw error;
  });
  return sessionId;
}

/**
 * Connects the signed-in member's Discord as `username` through the sandbox's consent page, as the
 * Discord page does: better-auth's link-social, the consent, the callback with the code.
 */
export async function connectDiscord(member: Browser, username: string): Promise<void> {
  const { url } = await member.post<{ url: string }>(LINK_SOCIAL_PATH, discordLinkRequest());
  const consent = new URL(url, member.base).searchParams;
  const { redirectUrl } = await member.post<{ redirectUrl: string }>(SANDBOX_DISCORD_PATHS.authorize, {
    clientId: consent.get('client_id'),
    redirectUri: consent.get('redirect_uri'),
    state: consent.get('state') ?? undefined,
    scope: consent.get('scope'),
    username,
  });
  const callback = new URL(redirectUrl);
  const back = await member.fetch(`${callback.pathname}${callback.search}`);
  const location = back.headers.get('location') ?? '';
  if (back.status !== 302 || location.includes('error=')) throw new Error(`GET ${callback.pathname}: ${back.status} ${location}`);
}

/** Signs up, then buys `planType` signed in, as a member does; returns the browser, signed in. */
export async function becomeMember(base: string, email: string, planType = 'monthly'): Promise<Browser> {
  const member = browser(base);
  await member.post('/api/auth/sign-up/email', { email, password: PASSWORD, name: 'bench' });
  await buy(member, planType, email, true);
  const { hasAccess } = await member.get<{ hasAccess: boolean }>('/api/access');
  if (!hasAccess) throw new Error('the bench member has no access after paying');
  return member;
}
