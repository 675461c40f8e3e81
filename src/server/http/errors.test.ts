import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../logger';
import { ApiError, handleError, readJson } from './errors';

const app = new Hono();
app.onError((error, c) => handleError(error, c, createLogger('silent')));
app.post('/echo', async (c) => c.json(await readJson(c, z.object({ planType: z.enum(['monthly', 'lifetime']) }))));
app.get('/refused', () => {
  throw new ApiError(409, 'lifetime_owned', 'You already have Lifetime access. No further purchase required.');
});
app.get('/broken', () => {
  throw new Error('database exploded with secrets');
});

const post = (body: string) => app.request('/echo', { method: 'POST', body, headers: { 'content-type': 'application/json' } });

describe('the API error shape', () => {
  it.each([
    { case: 'malformed JSON', body: '{"planType":', status: 400, code: 'invalid_json' },
    { case: 'a wrong value', body: '{"planType":"weekly"}', status: 400, code: 'validation_failed' },
    { case: 'an empty body', body: '', status: 400, code: 'validation_failed' },
    { case: 'an array instead of an object', body: '[]', status: 400, code: 'validation_failed' },
  ])('$case is a $status $code, never a 5xx', async ({ body, status, code }) => {
    const response = await post(body);
    expect(response.status).toBe(status);
    expect((await response.json()).error.code).toBe(code);
  });

  it('names the field that failed validation', async () => {
    const body = await (await post('{"planType":"weekly"}')).json();
    expect(body.error.message).toMatch(/^planType: /);
    expect(body.error.details[0].path).toBe('planType');
  });

  it('passes expected refusals through with their status and code', async () => {
    const response = await app.request('/refused');
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ error: { code: 'lifetime_owned', message: 'You already have Lifetime access. No further purchase required.' } });
  });

  it('answers unknown failures with a generic 500 that leaks nothing', async () => {
    const response = await app.request('/broken');
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).not.toContain('secrets');
  });
});
