import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { SERVER_ERROR_MESSAGES, jsonTooDeepMessage } from '@shared/error-messages';
import { JSON_MAX_DEPTH } from '@shared/json-limits';
import { WEBHOOK_JSON_MAX_DEPTH, jsonDepthLimit, nestsDeeperThan } from './json-depth';

const bytes = (text: string) => new TextEncoder().encode(text);
const arrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const objects = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

describe('nestsDeeperThan', () => {
  it.each([
    ['arrays at the limit', arrays(3), false],
    ['arrays past it', arrays(4), true],
    ['objects at the limit', objects(3), false],
    ['objects past it', objects(4), true],
    ['mixed past it', '{"a":[{"b":[]}]}', true],
    ['siblings do not add up', '[[[]],[[]],[[]],[[]]]', false],
    ['brackets inside a string do not count', '["[[[[{{{{"]', false],
    ['an escaped quote does not end the string', '["\\"[[[[["]', false],
    ['an escaped backslash does end it', '["\\\\",[[[]]]]', true],
    ['multi-byte characters pass through', '["Zoë 📈 €",["["]]', false],
    ['stray closers do not buy depth', ']]]][[[[', true],
    ['not JSON at all', 'email=a%40b.co&password=x', false],
    ['empty', '', false],
  ])('%s', (_name, text, deeper) => {
    expect(nestsDeeperThan(bytes(text), 3)).toBe(deeper);
  });

  it('stops at the first level past the limit, however long the rest', () => {
    expect(nestsDeeperThan(bytes(arrays(30_000)), JSON_MAX_DEPTH)).toBe(true);
    expect(nestsDeeperThan(bytes(arrays(JSON_MAX_DEPTH)), JSON_MAX_DEPTH)).toBe(false);
    expect(nestsDeeperThan(bytes(arrays(JSON_MAX_DEPTH + 1)), JSON_MAX_DEPTH)).toBe(true);
  });
});

describe('jsonDepthLimit', () => {
  const app = new Hono();
  app.use('*', jsonDepthLimit);
  app.get('/api/site', (c) => c.json({ ok: true }));
  // better-auth reads the raw request; the shop's routes read through Hono
  app.post('/api/auth/*', async (c) => c.json({ read: await c.req.raw.text() }));
  app.post('*', async (c) => c.json({ read: await c.req.text() }));
  const post = (path: string, body: string, contentType = 'application/json') =>
    app.request(path, { method: 'POST', headers: { 'content-type': contentType }, body });

  it('refuses a body past the limit with 400 and the API error shape, whatever its content type', async () => {
    for (const contentType of ['application/json', 'text/plain']) {
      const response = await post('/api/create-checkout', arrays(JSON_MAX_DEPTH + 1), contentType);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: { code: 'json_too_deep', message: SERVER_ERROR_MESSAGES.json_too_deep } });
    }
  });

  it('leaves the whole body to the route, as read by Hono or from the raw request', async () => {
    const body = JSON.stringify({ deep: JSON.parse(arrays(JSON_MAX_DEPTH - 1)), text: 'Zoë' });
    expect(await (await post('/api/create-checkout', body)).json()).toEqual({ read: body });
    expect(await (await post('/api/auth/sign-in/email', body)).json()).toEqual({ read: body });
  });

  it('gives webhooks their own wider bound', async () => {
    expect((await post('/api/webhooks/stripe', arrays(WEBHOOK_JSON_MAX_DEPTH))).status).toBe(200);
    const refused = await post('/api/webhooks/stripe', arrays(WEBHOOK_JSON_MAX_DEPTH + 1));
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ error: { code: 'json_too_deep', message: jsonTooDeepMessage(WEBHOOK_JSON_MAX_DEPTH) } });
  });

  it('lets reads through untouched', async () => {
    expect((await app.request('/api/site')).status).toBe(200);
  });
});
