// Who may take a paid purchase. The session id travels in the success URL (history,
// screenshots, referrers), so holding it proves nothing. Two things do: the httpOnly
// cookie that create-checkout set in the browser that started the checkout, and the signed link
// mailed to the paid address (it proves the e-mail; valid 7 days). Both are HMACs under the
// server secret, so no table is needed; "single use for account creation" follows from the claim.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { FINISH_SETUP_LINK_TTL_MS } from '@shared/timing';

/** Checkouts one browser can prove at once (two tabs, a retried checkout). */
const REMEMBERED_CHECKOUTS = 5;

export type CheckoutProofs = ReturnType<typeof createCheckoutProofs>;

export function createCheckoutProofs(options: { secret: string; cookieName: string; secureCookie: boolean; publicUrl: string }) {
  const mac = (purpose: string, value: string) => createHmac('sha256', options.secret).update(`${purpose}\n${value}`).digest('base64url').slice(0, 32);
  const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  const browserMac = (sessionId: string) => mac('checkout-browser', sessionId);
  const remembered = (c: Context) => (getCookie(c, options.cookieName) ?? '').split('.').filter(Boolean);
  const started = (c: Context, sessionId: string) => remembered(c).some((value) => same(value, browserMac(sessionId)));

  function mailToken(sessionId: string, writtenAt: Date): string {
    const expires = Math.floor((writtenAt.getTime() + FINISH_SETUP_LINK_TTL_MS) / 1000);
    return `${expires}.${mac('finish-setup', `${sessionId}\n${expires}`)}`;
  }

  function mailTokenProves(token: string | undefined, sessionId: string, now: Date): boolean {
    const [expires, signature] = (token ?? '').split('.');
    if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return false;
    if (Number(expires) * 1000 < now.getTime()) return false;
    return same(signature, mac('finish-setup', `${sessionId}\n${expires}`));
  }

  /** This browser started the checkout `sessionId` from now on (kept beside its other recent ones). */
  function remember(c: Context, sessionId: string): void {
    const macs = [browserMac(sessionId), ...remembered(c).filter((value) => value !== browserMac(sessionId))].slice(0, REMEMBERED_CHECKOUTS);
    setCookie(c, options.cookieName, macs.join('.'), {
      httpOnly: true,
      sameSite: 'Lax',
      secure: options.secureCookie,
      path: '/api',
      maxAge: FINISH_SETUP_LINK_TTL_MS / 1000,
    });
  }

  return {
    /** The signed /payment-success link of the finish-setup mail. */
    finishSetupUrl: (sessionId: string, writtenAt: Date) =>
      `${options.publicUrl}/payment-success?session_id=${encodeURIComponent(sessionId)}&proof=${encodeURIComponent(mailToken(sessionId, writtenAt))}`,
    mailToken,
    remember,
    /** Whether this browser started the checkout `sessionId` (its cookie; a mailed token does not count). */
    started,
    /**
     * Whether the caller proved the purchase: its checkout cookie, or a valid mailed token (which
     * then also marks this browser, so the rest of the flow needs no token).
     */
    proves(c: Context, sessionId: string, token: string | undefined, now: Date): boolean {
      if (started(c, sessionId)) return true;
      if (!mailTokenProves(token, sessionId, now)) return false;
      remember(c, sessionId);
      return true;
    },
  };
}

/** a***@example.com: enough for the buyer to recognise, not enough for a stranger to use. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email[0]}***${email.slice(at)}`;
}
