import { createHmac, timingSafeEqual } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import type { Auth } from './auth';
import type { ReadCache } from '@shared/read-cache';
import type { SessionRepository } from './session.repository';
import type { AuthVariables } from '../../http/session-user';

/**
 * better-call's cookie reading, its first half: the value of the first pair with this name, as
 * sent (still quoted and percent-encoded). Scanned in place: no array of pairs per request.
 */
export function rawCookieValue(header: string, name: string): string | null {
  let start = 0;
  while (start < header.length) {
    let end = header.indexOf(';', start);
    if (end === -1) end = header.length;
    const eq = header.indexOf('=', start);
    if (eq !== -1 && eq < end && header.slice(start, eq).trim() === name) return header.slice(eq + 1, end).trim();
    start = end + 1;
  }
  return null;
}

/** Its second half: unquoted, percent-decoded (a malformed escape is kept as sent). */
export function decodedCookieValue(raw: string): string {
  const value = raw.startsWith('"') ? raw.slice(1, -1) : raw;
  try {
    return value.includes('%') ? decodeURIComponent(value) : value;
  } catch {
    return value;
  }
}

/**
 * The token of a `token.signature` cookie, when the signature is the base64 HMAC-SHA256 of the
 * token under the auth secret: better-call's signed cookies, as better-auth verifies them.
 */
export function verifiedToken(signed: string, secret: string): string | null {
  const dot = signed.lastIndexOf('.');
  if (dot < 1) return null;
  const token = signed.slice(0, dot);
  const signature = Buffer.from(signed.slice(dot + 1));
  const expected = Buffer.from(createHmac('sha256', secret).update(token).digest('base64'));
  return signature.length === expected.length && timingSafeEqual(signature, expected) ? token : null;
}

type SessionRules = { cookieName: string; secret: string; expiresInMs: number; updateAgeMs: number };

/**
 * Puts the signed-in user (or null) and their access on the context for every API route.
 *
 * The signed cookie is checked here exactly as better-auth checks it, then the session, its user
 * and the access rule are read together (session.repository.ts), through `reads`: the requests of
 * one page share one statement. Any write this instance makes ends what `reads` kept, so a
 * session ended (sign-out, password reset, revoked devices) or access ended (refund, revoke) here
 * shows on the very next request; a change made elsewhere or by the clock (a period's end), within
 * MEMBER_CACHE_MS (docs/decisions/021). What better-auth does beyond reading — deleting an expired
 * session, extending one older than `updateAge` — is left to better-auth's own getSession.
 */
export function loadSession(auth: Auth, sessions: SessionRepository, reads: ReadCache) {
  let pending: Promise<SessionRules> | null = null;
  let known: SessionRules | null = null;
  const sessionRules = async () =>
    (known ??= await (pending ??= auth.$context.then((context) => ({
      cookieName: context.authCookies.sessionToken.name,
      secret: context.secret,
      expiresInMs: context.sessionConfig.expiresIn * 1000,
      updateAgeMs: context.sessionConfig.updateAge * 1000,
    }))));

  return createMiddleware<{ Variables: AuthVariables }>(async (c, next) => {
    c.set('user', null);
    c.set('hasAccess', false);
    const cookies = c.req.header('cookie');
    const { cookieName, secret, expiresInMs, updateAgeMs } = known ?? (await sessionRules());
    const sent = cookies ? rawCookieValue(cookies, cookieName) : null;
    // kept under the value as sent, so that a kept session costs no decoding and no signature
    // check either; a cookie that names no session is not kept, or anonymous junk would fill the cache
    const found = sent
      ? await reads.read(
          `session:${sent}`,
          async () => {
            const token = verifiedToken(decodedCookieValue(sent), secret);
            return token ? sessions.findWithAccess(token) : null;
          },
          (session) => session !== null,
        )
      : null;
    if (found) {
      const now = Date.now();
      const expired = found.expiresAt.getTime() < now;
      const dueForRefresh = found.expiresAt.getTime() - expiresInMs + updateAgeMs <= now;
      if (!expired && !dueForRefresh) {
        c.set('user', found.user);
        c.set('hasAccess', found.hasAccess);
      } else {
        const result = await auth.api.getSession({ headers: c.req.raw.headers });
        if (result) {
          const { id, email, name, createdAt, emailVerified, twoFactorEnabled } = result.user;
          const signIn = { at: result.session.createdAt, passedTwoFactor: result.session.twoFactorVerified === true };
          c.set('user', { id, email, name, createdAt, emailVerified, twoFactorEnabled: twoFactorEnabled === true, signIn });
          c.set('hasAccess', (await sessions.findWithAccess(result.session.token))?.hasAccess === true);
        }
      }
    }
    await next();
  });
}
