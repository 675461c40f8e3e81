import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiRequestError } from '@client/lib/api/api-client';
import { checkAccessWithRetry } from './use-dashboard-access';

afterEach(() => {
  vi.useRealTimers();
});

const unavailable = () => new ApiRequestError('Service unavailable', 503, 'internal', true);

describe('the route guard access check', () => {
  it('tries 3 times, waiting 1 s and then 2 s, before giving up', async () => {
    vi.useFakeTimers();
    const fetchOnce = vi.fn(async () => {
      throw unavailable();
    });
    const result = checkAccessWithRetry(fetchOnce, new AbortController().signal);
    const outcome = result.then(
      () => 'resolved',
      (error: unknown) => error,
    );

    await vi.advanceTimersByTimeAsync(0);
    expect(fetchOnce).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(999);
    expect(fetchOnce).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchOnce).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(fetchOnce).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchOnce).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetchOnce).toHaveBeenCalledTimes(3);
    expect(await outcome).toBeInstanceOf(ApiRequestError);
  });

  it('answers as soon as a retry succeeds', async () => {
    vi.useFakeTimers();
    const fetchOnce = vi.fn().mockRejectedValueOnce(unavailable()).mockResolvedValueOnce(true);
    const result = checkAccessWithRetry(fetchOnce, new AbortController().signal);
    await vi.advanceTimersByTimeAsync(1000);
    await expect(result).resolves.toBe(true);
    expect(fetchOnce).toHaveBeenCalledTimes(2);
  });

  it('does not retry an answer: no access is final, and so is a refused request', async () => {
    await expect(checkAccessWithRetry(vi.fn().mockResolvedValue(false), new AbortController().signal)).resolves.toBe(false);
    const forbidden = vi.fn().mockRejectedValue(new ApiRequestError('Forbidden', 403, 'forbidden'));
    await expect(checkAccessWithRetry(forbidden, new AbortController().signal)).rejects.toBeInstanceOf(ApiRequestError);
    expect(forbidden).toHaveBeenCalledTimes(1);
  });

  it('treats a 401 as signed out, without retrying', async () => {
    const unauthorized = vi.fn().mockRejectedValue(new ApiRequestError('Please sign in', 401, 'unauthorized'));
    const error = await checkAccessWithRetry(unauthorized, new AbortController().signal).catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(ApiRequestError);
    expect(unauthorized).toHaveBeenCalledTimes(1);
  });

  it('stops waiting when aborted (the 8 s limit or leaving the page)', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const fetchOnce = vi.fn().mockRejectedValue(unavailable());
    const result = checkAccessWithRetry(fetchOnce, controller.signal).catch(() => 'stopped');
    await vi.advanceTimersByTimeAsync(500);
    controller.abort();
    expect(await result).toBe('stopped');
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetchOnce).toHaveBeenCalledTimes(1);
  });
});
