import { describe, expect, it } from 'vitest';
import {
  ACCESS_REFRESH_ATTEMPTS,
  ACCESS_REFRESH_RETRY_MS,
  ACCESS_RPC_MAX_ATTEMPTS,
  PAYMENT_VERIFICATION_TIMEOUT_MS,
  REDIRECT_DELAYS_MS,
  RESET_LINK_TTL_SECONDS,
  ROUTE_GUARD_MAX_ATTEMPTS,
  ROUTE_GUARD_TIMEOUT_MS,
  TRACKING_COOKIE_MAX_AGE_SECONDS,
  UPGRADE_SUCCESS_DELAYS_MS,
  UPGRADE_SUCCESS_PATH,
  accessRpcDelay,
  carouselLayout,
  carouselLoopWidth,
  countdownParts,
  footerScrollBehavior,
  isMobileWidth,
  postActionRefreshDelays,
  routeGuardRetryDelay,
  wrapCarouselOffset,
} from './timing';

describe('retry policies', () => {
  it.each([
    [1, 2000],
    [2, 4000],
    [3, 8000],
    [4, 8000],
    [5, 8000],
    [0, 2000],
  ])('accessRpcDelay(%i) → %i ms', (n, ms) => {
    expect(accessRpcDelay(n)).toBe(ms);
  });

  it('gives the access RPC 5 attempts, so 4 waits totalling 22 s', () => {
    expect(ACCESS_RPC_MAX_ATTEMPTS).toBe(5);
    const waits = Array.from({ length: ACCESS_RPC_MAX_ATTEMPTS - 1 }, (_, i) => accessRpcDelay(i + 1));
    expect(waits).toEqual([2000, 4000, 8000, 8000]);
  });

  it.each([
    [0, 1000],
    [1, 2000],
    [2, 2000],
    [-1, 1000],
  ])('routeGuardRetryDelay(%i) → %i ms', (i, ms) => {
    expect(routeGuardRetryDelay(i)).toBe(ms);
  });

  it.each([
    ['cancellation', { beforeSubscriptionRefresh: 2500, beforeAccessRefresh: 1000 }],
    ['other', { beforeSubscriptionRefresh: 1500, beforeAccessRefresh: 1000 }],
  ] as const)('postActionRefreshDelays(%s)', (action, expected) => {
    expect(postActionRefreshDelays(action)).toEqual(expected);
  });

  it('has the spec timings', () => {
    expect([ROUTE_GUARD_TIMEOUT_MS, ROUTE_GUARD_MAX_ATTEMPTS]).toEqual([8000, 3]);
    expect([ACCESS_REFRESH_ATTEMPTS, ACCESS_REFRESH_RETRY_MS]).toEqual([3, 1000]);
    expect(PAYMENT_VERIFICATION_TIMEOUT_MS).toBe(15_000);
    expect(REDIRECT_DELAYS_MS).toEqual({ afterPasswordReset: 1000, afterLoginReevaluate: 1000, afterActivation: 1500, afterAutoLoginFailure: 2000 });
    expect(UPGRADE_SUCCESS_DELAYS_MS).toEqual({ beforeSubscriptionRefresh: 2000, beforeAccessRefresh: 1000, beforeNavigate: 500 });
    expect(UPGRADE_SUCCESS_PATH).toBe('/dashboard/settings?section=upgrade');
    expect(TRACKING_COOKIE_MAX_AGE_SECONDS).toBe(7_776_000);
    expect(RESET_LINK_TTL_SECONDS).toBe(600);
  });
});

describe('countdownParts', () => {
  const end = new Date('2025-11-26T23:59:59.000Z');
  it.each([
    ['2025-11-26T23:59:58.000Z', { days: 0, hours: 0, minutes: 0, seconds: 1, ended: false }],
    ['2025-11-26T23:59:58.500Z', { days: 0, hours: 0, minutes: 0, seconds: 0, ended: true }],
    ['2025-11-25T22:58:57.000Z', { days: 1, hours: 1, minutes: 1, seconds: 2, ended: false }],
    ['2025-11-16T23:59:59.000Z', { days: 10, hours: 0, minutes: 0, seconds: 0, ended: false }],
    ['2025-11-26T23:59:59.000Z', { days: 0, hours: 0, minutes: 0, seconds: 0, ended: true }],
    ['2025-12-01T00:00:00.000Z', { days: 0, hours: 0, minutes: 0, seconds: 0, ended: true }],
  ])('at %s', (now, expected) => {
    expect(countdownParts(end, new Date(now))).toEqual(expected);
  });
});

describe('layout', () => {
  it.each([
    [767, true, { cardWidth: 320, gap: 16 }, 'instant'],
    [768, false, { cardWidth: 400, gap: 24 }, 'smooth'],
    [375, true, { cardWidth: 320, gap: 16 }, 'instant'],
    [1440, false, { cardWidth: 400, gap: 24 }, 'smooth'],
  ])('width %i: mobile %s, carousel %j, footer scroll %s', (width, mobile, layout, behaviour) => {
    expect(isMobileWidth(width)).toBe(mobile);
    expect(carouselLayout(width)).toEqual(layout);
    expect(footerScrollBehavior(width)).toBe(behaviour);
  });

  it.each([
    [10, 1440, 4240],
    [10, 375, 3360],
  ])('carouselLoopWidth(%i cards, %i px) → %i', (cards, width, expected) => {
    expect(carouselLoopWidth(cards, width)).toBe(expected);
  });

  it.each([
    [0, 4240, 0],
    [1.8, 4240, 1.8],
    [4240, 4240, 0],
    [4241.8, 4240, 1.8000000000003638],
    [-10, 4240, 4230],
    [100, 0, 0],
  ])('wrapCarouselOffset(%d, %d) → %d', (offset, loop, expected) => {
    expect(wrapCarouselOffset(offset, loop)).toBeCloseTo(expected, 9);
  });
});
