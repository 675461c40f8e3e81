import { afterEach, describe, expect, it, vi } from 'vitest';
import { UnreadableAnswerError } from './api-client';
import { createCheckout, MissingCheckoutUrlError } from './checkout';
import { toErrorInput } from './error-input';
import { previewUpgradeCost, updateSubscription } from './plan-change';
import { getSubscription } from './subscription';
import { API_TIMEOUT_MS } from './timeouts';

// The calls of this folder check their answers by hand (the landing bundle carries no zod).

const answer = (body: unknown) => {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
};

afterEach(() => vi.unstubAllGlobals());

describe('answers the client cannot read', () => {
  it.each([
    ['the subscription view', () => getSubscription(), { isActive: 'yes' }],
    ['the subscription view with an unknown plan', () => getSubscription(), { planType: 'weekly', isActive: true, isCanceled: false }],
    ['the upgrade preview', () => previewUpgradeCost('yearly'), { unexpected: true }],
    ['the plan change', () => updateSubscription('yearly'), { success: true }],
  ])('%s fails as unreadable, which the error texts show as their default', async (_name, call, body) => {
    answer(body);
    const error = await call().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnreadableAnswerError);
    expect(toErrorInput(error)).toEqual({});
  });

  it('a checkout without a url or session id is a MissingCheckoutUrlError', async () => {
    answer({ url: '', sessionId: 'cs_1' });
    await expect(createCheckout({ planType: 'monthly', customerEmail: null, fbc: null, fbp: null, userAgent: null, originPage: '/' })).rejects.toBeInstanceOf(MissingCheckoutUrlError);
  });
});

describe('answers the client reads', () => {
  it('a preview that says to buy through checkout', async () => {
    answer({ redirectToCheckout: true });
    await expect(previewUpgradeCost('yearly')).resolves.toEqual({ redirectToCheckout: true });
  });

  it('a plan change, given the time a card charge may take', async () => {
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    answer({ success: true, planType: 'yearly' });
    await expect(updateSubscription('yearly')).resolves.toEqual({ success: true, planType: 'yearly' });
    expect(timeout).toHaveBeenCalledWith(API_TIMEOUT_MS.charge);
    timeout.mockRestore();
  });
});
