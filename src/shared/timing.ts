// Delays, retry policies and layout constants of the product's pages, in one place so client
// and server agree and tests can use them instead of magic numbers.

// ---------------------------------------------------------------- access checks

export const ACCESS_RPC_MAX_ATTEMPTS = 5;

/** Wait before access-check attempt n+1 after attempt n (n ≥ 1) failed: min(2000 × 2^(n−1), 8000). */
export function accessRpcDelay(n: number): number {
  return Math.min(2000 * 2 ** (Math.max(1, n) - 1), 8000);
}

export const ROUTE_GUARD_TIMEOUT_MS = 8000;
// The spec's "3 retries with 1 s, 2 s back-off" names two waits, so three tries in all.
export const ROUTE_GUARD_MAX_ATTEMPTS = 3;
export const ROUTE_GUARD_RETRY_DELAYS_MS = [1000, 2000] as const;

const SESSION_RETRY_FIRST_MS = 1000;
const SESSION_RETRY_MAX_MS = 30_000;

/**
 * Wait before retry number `retryIndex` (0-based) of the session check after a failure that says
 * nothing about the session (no answer, 429, 5xx): 1 s, 2 s, 4 s … at most 30 s, without a limit.
 */
export function sessionRetryDelay(retryIndex: number): number {
  return Math.min(SESSION_RETRY_FIRST_MS * 2 ** Math.max(0, retryIndex), SESSION_RETRY_MAX_MS);
}

/** Wait before the route guard's retry number `retryIndex` (0-based, as TanStack Query counts). */
export function routeGuardRetryDelay(retryIndex: number): number {
  const delays = ROUTE_GUARD_RETRY_DELAYS_MS;
  return delays[Math.min(Math.max(0, retryIndex), delays.length - 1)] ?? delays[0];
}

export const ACCESS_REFRESH_ATTEMPTS = 3;
export const ACCESS_REFRESH_RETRY_MS = 1000;

/** After sign-in, access resets to unknown and is checked this much later. */
export const SIGN_IN_ACCESS_CHECK_DELAY_MS = 100;

// ---------------------------------------------------------------- payment and redirects

export const PAYMENT_VERIFICATION_TIMEOUT_MS = 15_000;

export const REDIRECT_DELAYS_MS = {
  /** Password reset succeeded → /dashboard. */
  afterPasswordReset: 1000,
  /** existing_needs_login signed in → user status re-evaluated. */
  afterLoginReevaluate: 1000,
  /** Account or TradingView activation succeeded → /dashboard. */
  afterActivation: 1500,
  /** Automatic login after activation failed → /auth?email=… */
  afterAutoLoginFailure: 2000,
} as const;

export const UPGRADE_SUCCESS_DELAYS_MS = {
  beforeSubscriptionRefresh: 2000,
  beforeAccessRefresh: 1000,
  beforeNavigate: 500,
} as const;

export const UPGRADE_SUCCESS_PATH = '/dashboard/settings?section=upgrade';

/** Waits of the generic post-action refresh: longer after a cancellation, which settles slower. */
export function postActionRefreshDelays(action: 'cancellation' | 'other'): {
  beforeSubscriptionRefresh: number;
  beforeAccessRefresh: number;
} {
  return {
    beforeSubscriptionRefresh: action === 'cancellation' ? 2500 : 1500,
    beforeAccessRefresh: 1000,
  };
}

// ---------------------------------------------------------------- sale countdown

export const COUNTDOWN_TICK_MS = 1000;

export type CountdownParts = {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
  ended: boolean;
};

/** Time left until `endsAt`, whole units, all zero once the sale has ended. */
export function countdownParts(endsAt: Date, now: Date): CountdownParts {
  const left = Math.max(0, Math.floor((endsAt.getTime() - now.getTime()) / 1000));
  return {
    days: Math.floor(left / 86_400),
    hours: Math.floor((left % 86_400) / 3600),
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
    ended: left === 0,
  };
}

// ---------------------------------------------------------------- cookies and links

export const TRACKING_COOKIE_DAYS = 90;
export const TRACKING_COOKIE_MAX_AGE_SECONDS = TRACKING_COOKIE_DAYS * 24 * 60 * 60;
export const RESET_LINK_MINUTES = 10;
export const RESET_LINK_TTL_SECONDS = RESET_LINK_MINUTES * 60;

/** How long the signed link of the finish-setup mail (and the checkout cookie) proves a purchase. */
export const FINISH_SETUP_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000;

// ---------------------------------------------------------------- landing page motion and layout

export const BREAKPOINT_PX = 768;

/** Below the breakpoint: mobile menu, desktop-required notice, narrow carousel. */
export function isMobileWidth(width: number): boolean {
  return width < BREAKPOINT_PX;
}

export const TESTIMONIAL_ADVANCE_MS = 3000;
export const TESTIMONIAL_PAUSE_AFTER_INTERACTION_MS = 8000;
export const TESTIMONIALS_VISIBLE_WIDE = 3;

export const CAROUSEL_SPEED_PX_PER_FRAME = 1.8;
export const CAROUSEL_RESUME_MS = 1000;
export const CAROUSEL_CARD_WIDTH_PX = { mobile: 320, desktop: 400 } as const;
export const CAROUSEL_GAP_PX = { mobile: 16, desktop: 24 } as const;

export function carouselLayout(viewportWidth: number): { cardWidth: number; gap: number } {
  const size = isMobileWidth(viewportWidth) ? 'mobile' : 'desktop';
  return { cardWidth: CAROUSEL_CARD_WIDTH_PX[size], gap: CAROUSEL_GAP_PX[size] };
}

/** Width of one full set of cards; the loop jumps back by this much so it never shows a seam. */
export function carouselLoopWidth(cardCount: number, viewportWidth: number): number {
  const { cardWidth, gap } = carouselLayout(viewportWidth);
  return cardCount * (cardWidth + gap);
}

/** Keeps a scroll offset inside [0, loopWidth) whichever way the user drags. */
export function wrapCarouselOffset(offset: number, loopWidth: number): number {
  if (loopWidth <= 0) return 0;
  return ((offset % loopWidth) + loopWidth) % loopWidth;
}

export const FOOTER_SCROLL_DELAY_MS = 100;

export function footerScrollBehavior(viewportWidth: number): 'instant' | 'smooth' {
  return isMobileWidth(viewportWidth) ? 'instant' : 'smooth';
}
