import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/test-app';
import { mayBeLarge } from './compression';

describe('mayBeLarge', () => {
  it.each([
    ['/', true],
    ['/assets/index-abc123.js', true],
    ['/dashboard/guides', true],
    // guides and strategies come gzipped from their route (prepared-json.ts)
    ['/api/content/guides/getting-started', false],
    ['/api/content/images/pro-v2-preview.svg', true],
    ['/api/openapi.json', true],
    ['/api/sandbox/mailbox', true],
    ['/healthz', false],
    ['/readyz', false],
    ['/api/access', false],
    ['/api/subscription', false],
    ['/api/auth/get-session', false],
  ])('%s → %s', (path, expected) => {
    expect(mayBeLarge(path)).toBe(expected);
  });
});

describe('compression through the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });
  const gzipped = { 'accept-encoding': 'gzip' };

  it('sends a tiny JSON answer as it is, even to a client that accepts gzip', async () => {
    const response = await t.request('/healthz', { headers: gzipped });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('still gzips a large document for a client that accepts it, and only then', async () => {
    const response = await t.request('/api/openapi.json', { headers: gzipped });
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('vary')).toContain('Accept-Encoding');
    const document = JSON.parse(gunzipSync(Buffer.from(await response.arrayBuffer())).toString('utf8')) as { openapi: string };
    expect(document.openapi).toMatch(/^3\.1/);
    const plain = await t.request('/api/openapi.json');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(((await plain.json()) as { openapi: string }).openapi).toBe(document.openapi);
  });
});
