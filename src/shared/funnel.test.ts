import { describe, expect, it } from 'vitest';
import { cleanTag, funnelQuerySchema, isAutomatedVisit, NO_UTM, utmCookieValue, utmFromCookie, utmOf, UTM_MAX_LENGTH, visitRefOf } from './funnel';

describe('isAutomatedVisit', () => {
  it.each([
    ['Mozilla/5.0 (compatible; Googlebot/2.1)', undefined, true],
    ['facebookexternalhit/1.1', undefined, true],
    ['curl/8.5.0', undefined, true],
    ['Mozilla/5.0 HeadlessChrome/120', undefined, true],
    ['', undefined, true],
    [undefined, undefined, true],
    ['Mozilla/5.0 (iPhone) Safari/604.1', 'prefetch', true],
    ['Mozilla/5.0 (iPhone) Safari/604.1', undefined, false],
  ])('%s (purpose %s): %s', (userAgent, purpose, automated) => {
    expect(isAutomatedVisit({ userAgent, purpose })).toBe(automated);
  });
});

describe('UTM tags', () => {
  it('keeps a short printable lower-case tag, cut at the limit', () => {
    expect(cleanTag('  Spring Sale<script>\u0000 ')).toBe('spring salescript');
    expect(cleanTag('a'.repeat(5000))).toHaveLength(UTM_MAX_LENGTH);
    expect(cleanTag(null)).toBe('');
  });

  it('reads them from an address and back from the cookie; a tampered cookie is none', () => {
    const utm = utmOf(new URLSearchParams('utm_source=News|letter&utm_medium=e-mail&utm_campaign=bf'));
    expect(utm).toEqual({
      source: 'newsletter',
      medium: 'e-mail',
      campaign: 'bf',
    });
    expect(utmFromCookie(utmCookieValue(utm))).toEqual(utm);
    expect(utmFromCookie('%E0%A4%A|b|c')).toEqual(NO_UTM);
    expect(utmFromCookie('only|two')).toEqual(NO_UTM);
    expect(utmFromCookie('x'.repeat(5000))).toEqual(NO_UTM);
  });

  it('an affiliate code on the address: upper case, or none when malformed', () => {
    expect(visitRefOf(new URLSearchParams('ref=ada_7'))).toBe('ADA_7');
    expect(visitRefOf(new URLSearchParams(`ref=${'A'.repeat(41)}`))).toBe('');
    expect(visitRefOf(new URLSearchParams('ref=<b>'))).toBe('');
  });
});

describe('funnelQuerySchema', () => {
  it.each([
    [{}, 30],
    [{ days: '1' }, 1],
    [{ days: '366' }, 366],
  ])('%j → %i days', (query, days) => {
    expect(funnelQuerySchema.parse(query).days).toBe(days);
  });

  it.each(['abc', '100000', '0', '367', '1e3', ''])('refuses days=%s', (days) => {
    expect(funnelQuerySchema.safeParse({ days }).success).toBe(false);
  });
});
