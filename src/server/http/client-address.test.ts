import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { TrustProxy } from '../config';
import { CLIENT_ADDRESS_HEADER, clientAddress, clientAddressOf, resolveClientAddress } from './client-address';

const OFF: TrustProxy = { kind: 'off' };
const ONE_HOP: TrustProxy = { kind: 'hops', hops: 1 };
const TWO_HOPS: TrustProxy = { kind: 'hops', hops: 2 };
const LIST: TrustProxy = { kind: 'addresses', entries: ['10.0.0.0/8', '192.0.2.1', '2001:db8::/32'] };

// a random x-forwarded-for per request once gave unlimited password guesses
describe('resolveClientAddress', () => {
  it.each<[string, string | null, string | null, TrustProxy, string | null]>([
    ['off: the socket, whatever the header says', '198.51.100.7', '1.2.3.4', OFF, '198.51.100.7'],
    ['off: no socket, no address', null, '1.2.3.4', OFF, null],
    ['an IPv4-mapped socket address is plain IPv4', '::ffff:198.51.100.7', null, OFF, '198.51.100.7'],
    ['one hop: the address the proxy appended', '10.0.0.5', '1.2.3.4, 203.0.113.9', ONE_HOP, '203.0.113.9'],
    ['one hop, no header: the socket', '10.0.0.5', null, ONE_HOP, '10.0.0.5'],
    ['two hops: the address the first proxy appended', '10.0.0.5', '1.2.3.4, 203.0.113.9, 10.0.0.4', TWO_HOPS, '203.0.113.9'],
    ['more hops than entries: the leftmost', '10.0.0.5', '203.0.113.9', TWO_HOPS, '203.0.113.9'],
    ['hops onto junk: the socket', '10.0.0.5', 'junk', ONE_HOP, '10.0.0.5'],
    ['list: an untrusted socket ignores the header', '198.51.100.7', '1.2.3.4', LIST, '198.51.100.7'],
    ['list: trusted socket, first untrusted from the right', '10.0.0.5', '1.2.3.4, 203.0.113.9, 10.1.1.1', LIST, '203.0.113.9'],
    ['list: a single trusted address', '192.0.2.1', '203.0.113.9', LIST, '203.0.113.9'],
    ['list: IPv6 range', '2001:db8::1', '2001:db9::5', LIST, '2001:db9::5'],
    ['list: every hop trusted: the leftmost', '10.0.0.5', '10.0.0.6', LIST, '10.0.0.6'],
    ['list: junk stops the walk at the last good hop', '10.0.0.5', 'junk, 10.0.0.6', LIST, '10.0.0.6'],
  ])('%s', (_name, socket, forwarded, trust, expected) => {
    expect(resolveClientAddress(socket, forwarded, trust)).toBe(expected);
  });
});

describe('the clientAddress middleware', () => {
  // what a route sees; the header a client sends under our name is never it
  const app = new Hono().use('*', clientAddress(ONE_HOP)).all('*', (c) => c.json({ address: clientAddressOf(c.req.raw.headers) }));
  const seen = async (method: string, path: string) => {
    const headers = { 'x-forwarded-for': '198.51.100.4', [CLIENT_ADDRESS_HEADER]: '192.0.2.99' };
    return ((await (await app.request(path, { method, headers })).json()) as { address: string | null }).address;
  };

  it.each([
    ['POST', '/api/create-checkout'],
    ['DELETE', '/api/anything'],
    ['GET', '/api/auth/get-session'],
    ['POST', '/api/auth/sign-in/email'],
  ])('resolves it for %s %s, where better-auth or our limits read it', async (method, path) => {
    expect(await seen(method, path)).toBe('198.51.100.4');
  });

  it.each([
    ['GET', '/api/access'],
    ['GET', '/healthz'],
    ['GET', '/api/content/guides'],
  ])('leaves none for %s %s (no reader), and drops the one the client wrote', async (method, path) => {
    expect(await seen(method, path)).toBeNull();
  });
});
