import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createApp, publicSiteSettings } from '../app';
import { createTestApp } from '../test-support/test-app';
import { renderIndexHtml } from './spa';
import { securityHeaders } from './security-headers';
import { precompress } from '../../../scripts/precompress.mjs';

const TEMPLATE = '<html><head><link rel="icon" type="image/svg+xml" href="/favicon.svg" /><title>x</title></head><body></body></html>';

describe('index.html', () => {
  it('keeps the built-in mark as favicon by default and inlines the settings with it', () => {
    const settings = publicSiteSettings(loadConfig({}));
    const html = renderIndexHtml(TEMPLATE, settings);
    expect(settings.brandLogoUrl).toBe('/favicon.svg');
    expect(html).toContain('<link rel="icon" href="/favicon.svg" />');
    expect(html).toContain('"brandLogoUrl":"/favicon.svg"');
  });

  it('uses the configured brand mark as the favicon too, escaped for the attribute', () => {
    const settings = publicSiteSettings(loadConfig({ BRAND_LOGO_URL: 'https://cdn.example.com/logo.svg?a=1&b="2"' }));
    const html = renderIndexHtml(TEMPLATE, settings);
    expect(html).toContain('<link rel="icon" href="https://cdn.example.com/logo.svg?a=1&amp;b=&quot;2&quot;" />');
    expect(html.match(/rel="icon"/g)).toHaveLength(1);
  });
});

describe('BRAND_LOGO_URL', () => {
  it.each([
    ['', '/favicon.svg'],
    ['/brand/logo.png', '/brand/logo.png'],
    ['https://cdn.example.com/logo.svg', 'https://cdn.example.com/logo.svg'],
  ])('accepts %j', (value, expected) => {
    expect(loadConfig({ BRAND_LOGO_URL: value }).site.brandLogoUrl).toBe(expected);
  });

  it.each(['logo.svg', '//evil.example/logo.svg', 'javascript:alert(1)', 'ftp://files.example.com/logo.svg'])('refuses %j', (value) => {
    expect(() => loadConfig({ BRAND_LOGO_URL: value })).toThrow(/BRAND_LOGO_URL/);
  });
});

describe('a brand mark on another host', () => {
  it('is allowed by the content security policy, and only that host', async () => {
    const t = await createTestApp({ BRAND_LOGO_URL: 'https://cdn.example.com/brand/logo.svg' });
    try {
      const policy = securityHeaders(t.deps.config)['content-security-policy'];
      expect(policy).toMatch(/img-src 'self' data: https:\/\/cdn\.example\.com(;|$)/);
      expect((await (await t.request('/api/site')).json()).brandLogoUrl).toBe('https://cdn.example.com/brand/logo.svg');
    } finally {
      await t.close();
    }
  });
});

describe('unknown addresses', () => {
  // regression (#46): every address answered 200, so crawlers and monitors saw a page everywhere
  it('answer 404 with the app (which shows its not-found page); the app’s pages and areas answer 200', async () => {
    const clientDir = mkdtempSync(join(tmpdir(), 'candlewise-spa-'));
    writeFileSync(join(clientDir, 'index.html'), '<!doctype html><html><head><title>shop</title></head><body><div id="root"></div></body></html>');
    const t = await createTestApp();
    try {
      const app = await createApp({ deps: t.deps, services: t.services, jobs: t.jobs }, { clientDir });
      for (const path of ['/no/such/page', '/pricing', '/dashboardx', '/favicon.ico', '/auth/extra']) {
        const response = await app.request(path);
        expect(response.status, path).toBe(404);
        expect(await response.text(), path).toContain('<div id="root">');
      }
      for (const path of ['/auth', '/auth/', '/payment-success?session_id=x', '/dashboard', '/dashboard/settings', '/admin/members/1', '/sandbox/mailbox', '/contact']) {
        expect((await app.request(path)).status, path).toBe(200);
      }
      const api = await app.request('/api/no-such-route');
      expect(api.status).toBe(404);
      expect(((await api.json()) as { error: { code: string } }).error.code).toBe('not_found');
    } finally {
      await t.close();
      rmSync(clientDir, { recursive: true, force: true });
    }
  });
});

describe('the build\'s scripts', () => {
  it('go out compressed at build time: brotli or gzip as the browser accepts, as they are to one that accepts neither', async () => {
    const clientDir = mkdtempSync(join(tmpdir(), 'candlewise-spa-'));
    const script = Array.from({ length: 300 }, (_, index) => `export const part${index} = ${index};`).join('\n');
    writeFileSync(join(clientDir, 'index.html'), TEMPLATE);
    mkdirSync(join(clientDir, 'assets'));
    writeFileSync(join(clientDir, 'assets', 'app-ABC123.js'), script);
    await precompress(clientDir);
    const t = await createTestApp();
    try {
      const app = await createApp({ deps: t.deps, services: t.services, jobs: t.jobs }, { clientDir });
      const fetchScript = (acceptEncoding?: string) =>
        app.request('/assets/app-ABC123.js', { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

      const brotli = await fetchScript('gzip, deflate, br, zstd');
      expect(brotli.headers.get('content-encoding')).toBe('br');
      expect(brotli.headers.get('vary')).toContain('Accept-Encoding');
      expect(brotli.headers.get('content-type')).toMatch(/javascript/);
      expect(brotliDecompressSync(Buffer.from(await brotli.arrayBuffer())).toString('utf8')).toBe(script);

      const gzip = await fetchScript('gzip');
      expect(gzip.headers.get('content-encoding')).toBe('gzip');
      expect(gunzipSync(Buffer.from(await gzip.arrayBuffer())).toString('utf8')).toBe(script);

      const plain = await fetchScript();
      expect(plain.headers.get('content-encoding')).toBeNull();
      expect(await plain.text()).toBe(script);
    } finally {
      await t.close();
      rmSync(clientDir, { recursive: true, force: true });
    }
  });
});
