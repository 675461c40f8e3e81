import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { api, ApiRequestError } from './api-client';

const respond = (status: number, body: unknown) =>
  vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));

afterEach(() => vi.restoreAllMocks());

describe('api', () => {
  it('posts JSON and returns the parsed answer', async () => {
    const fetchMock = respond(200, { url: '/x', sessionId: 'cs_1' });
    globalThis.fetch = fetchMock as unknown as typeof fetch;
    const result = await api('/api/create-checkout', { body: { planType: 'monthly' }, schema: z.object({ url: z.string(), sessionId: z.string() }) });
    expect(result).toEqual({ url: '/x', sessionId: 'cs_1' });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"planType":"monthly"}');
  });

  it('turns the API error shape into an ApiRequestError with code and message', async () => {
    globalThis.fetch = respond(409, { error: { code: 'lifetime_owned', message: 'You already have a Lifetime subscription.' } }) as unknown as typeof fetch;
    await expect(api('/api/create-checkout', { body: {} })).rejects.toMatchObject({ status: 409, code: 'lifetime_owned', message: 'You already have a Lifetime subscription.', network: false });
  });

  it('marks gateway errors and network failures as network trouble', async () => {
    globalThis.fetch = respond(503, {}) as unknown as typeof fetch;
    await expect(api('/api/access')).rejects.toMatchObject({ network: true, status: 503 });
    globalThis.fetch = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const error = await api('/api/access').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(error).toMatchObject({ code: 'network', network: true, status: 0 });
  });
});

describe('api with better-auth answers', () => {
  it('reads the code and message better-auth puts at the top level', async () => {
    globalThis.fetch = respond(401, { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' }) as unknown as typeof fetch;
    await expect(api('/api/auth/sign-in/email', { body: {} })).rejects.toMatchObject({ status: 401, code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' });
  });
});
