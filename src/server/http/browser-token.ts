// One random, long-lived id per browser, set on the pages the shop serves. It names no one and
// proves nothing: it only lets a limit count per browser where counting per address would count
// fifty buyers behind one carrier NAT or office as one (the anonymous-checkout limit).
import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

const TOKEN = /^[A-Za-z0-9_-]{22}$/;
const ONE_YEAR_S = 365 * 24 * 60 * 60;

export type BrowserTokens = { cookieName: string; secureCookie: boolean };

export const browserTokenCookie = (brandSlug: string) => `${brandSlug}.browser`;

/** The browser's id, or null when it sent none (a script without cookies) or a malformed one. */
export function browserTokenOf(c: Context, tokens: BrowserTokens): string | null {
  const value = getCookie(c, tokens.cookieName);
  return value !== undefined && TOKEN.test(value) ? value : null;
}

/** Gives the browser an id with this answer unless it already has one. */
export function ensureBrowserToken(c: Context, tokens: BrowserTokens): void {
  if (browserTokenOf(c, tokens) !== null) return;
  setCookie(c, tokens.cookieName, randomBytes(16).toString('base64url'), { httpOnly: true, sameSite: 'Lax', secure: tokens.secureCookie, path: '/', maxAge: ONE_YEAR_S });
}
