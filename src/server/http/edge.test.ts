import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { createLogger } from '../logger';
import { atTheEdge } from './edge';
import { securityHeaders } from './security-headers';

const lines: Record<string, unknown>[] = [];
const logger = createLogger('info', { destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) } });
const headers = securityHeaders(loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000' }));

const app = new Hono()
  .get('/healthz', (c) => c.json({ status: 'ok' }))
  .get('/page', (c) => c.html('<p>hello</p>'))
  .get('/framed', (c) => c.text('mine', 200, { 'x-frame-options': 'DENY' }));

let server: ServerType;
let base: string;
beforeAll(async () => {
  await new Promise<void>((listening) => {
    server = serve({ fetch: atTheEdge(app.fetch, { headers, logger }), hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) => {
      base = `http://127.0.0.1:${info.port}`;
      listening();
    });
  });
});
afterAll(() => new Promise<void>((closed) => server.close(() => closed())));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the edge', () => {
  it('sends the security headers with API answers, pages and unknown paths alike', async () => {
    for (const path of ['/healthz', '/page', '/nowhere']) {
      const response = await fetch(`${base}${path}`);
      for (const [name, value] of Object.entries(headers)) expect(response.headers.get(name), `${path} ${name}`).toBe(value);
    }
    const health = await fetch(`${base}/healthz`);
    expect(health.headers.get('content-type')).toBe('application/json');
    expect(await health.json()).toEqual({ status: 'ok' });
  });

  it('lets an answer set its own value of one of them', async () => {
    const response = await fetch(`${base}/framed`);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('gives every request its own id and logs one line with it, without the query', async () => {
    lines.length = 0;
    const first = await fetch(`${base}/healthz?token=secret-reset-token`);
    const second = await fetch(`${base}/nowhere`);
    const ids = [first.headers.get('x-request-id'), second.headers.get('x-request-id')];
    expect(ids[0]).toMatch(UUID);
    expect(ids[1]).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);
    // the log line is written when the answer is finished: poll for both
    await expect.poll(() => lines.filter((line) => line.msg === 'request').length).toBe(2);
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'request', requestId: ids[0], method: 'GET', path: '/healthz', status: 200, ms: expect.any(Number) }),
      expect.objectContaining({ msg: 'request', requestId: ids[1], method: 'GET', path: '/nowhere', status: 404 }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('secret-reset-token');
  });
});

describe('securityHeaders', () => {
  it('allows a brand mark, the chat and the pixel from their own hosts only', () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      PUBLIC_URL: 'http://localhost:3000',
      BRAND_LOGO_URL: 'https://cdn.example.com/brand/logo.svg',
      CHAT_URL: 'https://chat.example.org/widget',
      META_PIXEL_ID: '1234567890',
    });
    const policy = securityHeaders(config)['content-security-policy'];
    expect(policy).toMatch(/img-src 'self' data: https:\/\/www\.facebook\.com https:\/\/cdn\.example\.com(;|$)/);
    expect(policy).toMatch(/frame-src https:\/\/chat\.example\.org(;|$)/);
    expect(policy).toMatch(/script-src 'self' https:\/\/connect\.facebook\.net(;|$)/);
  });

  it('frames nothing and is framed by nothing without a chat', () => {
    const policy = securityHeaders(loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000' }))['content-security-policy'];
    expect(policy).toContain("frame-src 'none'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("default-src 'self'");
  });
});
