// Meta Pixel and its first-party click cookies (_fbp, and _fbc built from the fbclid parameter;
// both kept 90 days) and the ad-pixel events. Shared by the landing page (InitiateCheckout) and the payment
// page (Purchase). With no pixel id configured nothing is loaded, set or sent: a shop that does not
// advertise keeps no advertising cookies.
import { useEffect } from 'react';
import { checkoutCategory, type PlanType } from '@shared/plans';
import { TRACKING_COOKIE_MAX_AGE_SECONDS } from '@shared/timing';
import { useSiteSettings } from './site-settings';

export const FBC_COOKIE = '_fbc';
export const FBP_COOKIE = '_fbp';
export const PIXEL_SCRIPT_URL = 'https://connect.facebook.net/en_US/fbevents.js';
/** localStorage key prefix remembering which payment sessions were already reported. */
export const PURCHASE_TRACKED_PREFIX = 'purchase-tracked:';

type Fbq = ((...args: unknown[]) => void) & {
  callMethod?: (...args: unknown[]) => void;
  queue: unknown[][];
  push: Fbq;
  loaded: boolean;
  version: string;
};

declare global {
  interface Window {
    fbq?: Fbq;
    _fbq?: Fbq;
  }
}

let configuredPixelId: string | null = null;

// ---------------------------------------------------------------- cookie values

/** `fb.{subdomainIndex}.{creationTime}.{value}` with Meta's optional fifth "appendix" part. */
export type ClickCookie = { subdomainIndex: number; creationTime: number; value: string; appendix?: string };

/** Parses an `_fbc` or `_fbp` value; null when it is not in Meta's format. */
export function parseClickCookie(raw: string | null | undefined): ClickCookie | null {
  if (!raw) return null;
  const parts = raw.split('.');
  if (parts.length !== 4 && parts.length !== 5) return null;
  const [prefix, index, time, value, appendix] = parts;
  if (prefix !== 'fb' || !index || !/^\d$/.test(index) || !time || !/^\d{10,16}$/.test(time) || !value) return null;
  const cookie: ClickCookie = { subdomainIndex: Number(index), creationTime: Number(time), value };
  if (appendix !== undefined) {
    if (appendix === '') return null;
    cookie.appendix = appendix;
  }
  return cookie;
}

export function formatFbc(fbclid: string, nowMs: number): string {
  return `fb.1.${nowMs}.${fbclid}`;
}

export function formatFbp(nowMs: number, random: number = randomId()): string {
  return `fb.1.${nowMs}.${random}`;
}

function randomId(): number {
  // Meta's own pixel uses a 10-digit random number.
  return 1_000_000_000 + Math.floor(Math.random() * 9_000_000_000);
}

// ---------------------------------------------------------------- cookies

export function readCookie(name: string): string | null {
  for (const pair of document.cookie.split(';')) {
    const [key, ...rest] = pair.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

function writeCookie(name: string, value: string): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${TRACKING_COOKIE_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure}`;
}

/**
 * Makes sure `_fbp` exists and that `_fbc` carries the `fbclid` of the current address (a new
 * ad click replaces an older one; the fbclid is kept exactly as Meta sent it). No-op without a pixel.
 */
export function ensureClickCookies(search: string = window.location.search, nowMs: number = Date.now()): void {
  if (!configuredPixelId) return;
  const fbclid = new URLSearchParams(search).get('fbclid');
  if (fbclid && parseClickCookie(readCookie(FBC_COOKIE))?.value !== fbclid) writeCookie(FBC_COOKIE, formatFbc(fbclid, nowMs));
  if (!parseClickCookie(readCookie(FBP_COOKIE))) writeCookie(FBP_COOKIE, formatFbp(nowMs));
}

/** The click ids a checkout sends so the server can match the purchase to the ad (null when absent or malformed). */
export function clickIds(): { fbc: string | null; fbp: string | null } {
  const fbc = readCookie(FBC_COOKIE);
  const fbp = readCookie(FBP_COOKIE);
  return { fbc: parseClickCookie(fbc) ? fbc : null, fbp: parseClickCookie(fbp) ? fbp : null };
}

// ---------------------------------------------------------------- pixel

function installPixel(pixelId: string): void {
  if (window.fbq) return;
  // Meta's standard stub: calls queue until fbevents.js arrives and replays them.
  const fbq = function (...args: unknown[]) {
    if (fbq.callMethod) fbq.callMethod(...args);
    else fbq.queue.push(args);
  } as Fbq;
  fbq.push = fbq;
  fbq.loaded = true;
  fbq.version = '2.0';
  fbq.queue = [];
  window.fbq = fbq;
  window._fbq = fbq;
  const script = document.createElement('script');
  script.async = true;
  script.src = PIXEL_SCRIPT_URL;
  document.head.appendChild(script);
  fbq('init', pixelId);
  fbq('track', 'PageView');
}

/** Loads the pixel and sets the click cookies when a pixel id is configured; safe to call repeatedly. */
export function initTracking(pixelId: string | null | undefined): void {
  if (!pixelId) return;
  configuredPixelId = pixelId;
  installPixel(pixelId);
  ensureClickCookies();
}

/**
 * React entry point: call `useMetaPixel()` in the page component that tracks. It initialises in an
 * effect, so send events from that page's own later effects or handlers (e.g. once payment details
 * have loaded), not from a child's mount effect, which runs first.
 */
export function useMetaPixel(): void {
  const { metaPixelId } = useSiteSettings();
  useEffect(() => initTracking(metaPixelId), [metaPixelId]);
}

function track(event: string, data: Record<string, unknown>, eventId?: string): boolean {
  if (!configuredPixelId || !window.fbq) return false;
  // eventID equal to the server's event_id lets Meta drop the duplicate of a server-side event.
  if (eventId) window.fbq('track', event, data, { eventID: eventId });
  else window.fbq('track', event, data);
  return true;
}

export function trackInitiateCheckout(input: { planName: string; planType: PlanType; value: number; eventId: string }): void {
  track(
    'InitiateCheckout',
    {
      content_name: input.planName,
      content_category: checkoutCategory(input.planType),
      value: input.value,
      currency: 'USD',
      num_items: 1,
    },
    input.eventId,
  );
}

/** Reports a purchase once per payment session (reloads and revisits of the success page do not count twice). */
export function trackPurchaseOnce(sessionId: string, amountTotal: number, currency: string | null | undefined): void {
  if (!configuredPixelId || !sessionId) return;
  const key = PURCHASE_TRACKED_PREFIX + sessionId;
  try {
    if (window.localStorage.getItem(key)) return;
  } catch {
    // storage blocked (private mode): report anyway rather than never
  }
  const sent = track('Purchase', { value: amountTotal / 100, currency: (currency || 'usd').toUpperCase() }, sessionId);
  if (!sent) return;
  try {
    window.localStorage.setItem(key, new Date().toISOString());
  } catch {
    // see above
  }
}

/** Test hook: forgets the configured pixel so each test starts clean. */
export function resetTrackingForTests(): void {
  configuredPixelId = null;
  delete window.fbq;
  delete window._fbq;
}
