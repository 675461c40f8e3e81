import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clickIds,
  ensureClickCookies,
  formatFbc,
  formatFbp,
  initTracking,
  parseClickCookie,
  PIXEL_SCRIPT_URL,
  readCookie,
  resetTrackingForTests,
  trackInitiateCheckout,
  trackPurchaseOnce,
} from './tracking';

function clearCookies() {
  for (const pair of document.cookie.split(';')) {
    const name = pair.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; Max-Age=0; Path=/`;
  }
}

function pixelScripts() {
  return [...document.querySelectorAll('script')].filter((script) => script.src === PIXEL_SCRIPT_URL);
}

/** The calls the page made to fbq (the stub queues them until Meta's script loads). */
function fbqCalls(): unknown[][] {
  return window.fbq?.queue ?? [];
}

beforeEach(() => {
  resetTrackingForTests();
  clearCookies();
  window.localStorage.clear();
  for (const script of pixelScripts()) script.remove();
});
afterEach(() => resetTrackingForTests());

describe('click cookie values', () => {
  it('formats _fbc from the fbclid exactly as given and _fbp with a random number', () => {
    expect(formatFbc('IwAR2xYz_AbC-9', 1_700_000_000_123)).toBe('fb.1.1700000000123.IwAR2xYz_AbC-9');
    expect(formatFbp(1_700_000_000_123, 1234567890)).toBe('fb.1.1700000000123.1234567890');
    expect(formatFbp(1_700_000_000_123)).toMatch(/^fb\.1\.1700000000123\.\d{10}$/);
  });

  it('parses four-part values and accepts an optional fifth part', () => {
    expect(parseClickCookie('fb.1.1700000000123.IwAR2xYz')).toEqual({ subdomainIndex: 1, creationTime: 1_700_000_000_123, value: 'IwAR2xYz' });
    expect(parseClickCookie('fb.2.1700000000123.1234567890.AQ')).toEqual({
      subdomainIndex: 2,
      creationTime: 1_700_000_000_123,
      value: '1234567890',
      appendix: 'AQ',
    });
  });

  it('rejects values that are not in Meta’s format', () => {
    for (const bad of [null, '', 'fb.1.123', 'xx.1.1700000000123.abc', 'fb.1.notatime.abc', 'fb.1.1700000000123.', 'fb.1.1700000000123.a.b.c', 'fb.1.1700000000123.a.']) {
      expect(parseClickCookie(bad)).toBeNull();
    }
  });
});

describe('without a pixel id', () => {
  it('loads no script, sets no cookie and sends nothing', () => {
    initTracking(null);
    ensureClickCookies('?fbclid=abc');
    trackInitiateCheckout({ planName: 'Monthly', planType: 'monthly', value: 36, eventId: 'cs_1' });
    trackPurchaseOnce('cs_1', 3600, 'usd');
    expect(pixelScripts()).toHaveLength(0);
    expect(window.fbq).toBeUndefined();
    expect(readCookie('_fbc')).toBeNull();
    expect(readCookie('_fbp')).toBeNull();
    expect(window.localStorage.length).toBe(0);
  });
});

describe('with a pixel id', () => {
  it('loads Meta’s script once, initialises the pixel and records a page view', () => {
    initTracking('123456789');
    initTracking('123456789');
    expect(pixelScripts()).toHaveLength(1);
    expect(fbqCalls()).toEqual([
      ['init', '123456789'],
      ['track', 'PageView'],
    ]);
  });

  it('creates _fbp and builds _fbc from the fbclid of the address, both for 90 days', () => {
    window.history.replaceState(null, '', '/?fbclid=IwAR_click-1');
    const before = Date.now();
    initTracking('123456789');
    const fbc = parseClickCookie(readCookie('_fbc'));
    expect(fbc?.value).toBe('IwAR_click-1');
    expect(fbc?.creationTime).toBeGreaterThanOrEqual(before);
    expect(parseClickCookie(readCookie('_fbp'))?.value).toMatch(/^\d{10}$/);
    expect(clickIds()).toEqual({ fbc: readCookie('_fbc'), fbp: readCookie('_fbp') });
    window.history.replaceState(null, '', '/');
  });

  it('keeps an existing _fbp and replaces _fbc only for a different click', () => {
    initTracking('123456789');
    const fbp = readCookie('_fbp');
    ensureClickCookies('?fbclid=first', 1_700_000_000_000);
    ensureClickCookies('?fbclid=first', 1_800_000_000_000);
    expect(readCookie('_fbc')).toBe('fb.1.1700000000000.first');
    ensureClickCookies('?fbclid=second', 1_800_000_000_000);
    expect(readCookie('_fbc')).toBe('fb.1.1800000000000.second');
    expect(readCookie('_fbp')).toBe(fbp);
  });

  it('sends no _fbc without an ad click and ignores malformed cookies', () => {
    document.cookie = '_fbc=garbage; Path=/';
    initTracking('123456789');
    expect(clickIds().fbc).toBeNull();
    expect(clickIds().fbp).not.toBeNull();
  });

  it('tracks InitiateCheckout with the spec’s fields and the session id as event id', () => {
    initTracking('123456789');
    trackInitiateCheckout({ planName: 'Lifetime', planType: 'lifetime', value: 549.99, eventId: 'cs_life' });
    trackInitiateCheckout({ planName: 'Quarterly', planType: 'euQuarterly', value: 59.99, eventId: 'cs_q' });
    expect(fbqCalls().slice(2)).toEqual([
      ['track', 'InitiateCheckout', { content_name: 'Lifetime', content_category: 'one-time', value: 549.99, currency: 'USD', num_items: 1 }, { eventID: 'cs_life' }],
      ['track', 'InitiateCheckout', { content_name: 'Quarterly', content_category: 'subscription', value: 59.99, currency: 'USD', num_items: 1 }, { eventID: 'cs_q' }],
    ]);
  });

  it('reports a purchase once per payment session with the value in major units and upper-case currency', () => {
    initTracking('123456789');
    trackPurchaseOnce('cs_paid', 7200, 'usd');
    trackPurchaseOnce('cs_paid', 7200, 'usd');
    trackPurchaseOnce('cs_other', 2999, 'eur');
    trackPurchaseOnce('cs_nocurrency', 1000, null);
    expect(fbqCalls().slice(2)).toEqual([
      ['track', 'Purchase', { value: 72, currency: 'USD' }, { eventID: 'cs_paid' }],
      ['track', 'Purchase', { value: 29.99, currency: 'EUR' }, { eventID: 'cs_other' }],
      ['track', 'Purchase', { value: 10, currency: 'USD' }, { eventID: 'cs_nocurrency' }],
    ]);
  });

  it('remembers reported purchases across page loads (localStorage)', () => {
    window.localStorage.setItem('purchase-tracked:cs_seen', '2026-01-01T00:00:00.000Z');
    initTracking('123456789');
    trackPurchaseOnce('cs_seen', 7200, 'usd');
    expect(fbqCalls().slice(2)).toEqual([]);
  });
});
