// Test harness for the settings feature: the shared render and fetch helpers of src/client/test,
// with a signed-in monthly member as the default answers and the settings page's own providers.
import { vi } from 'vitest';
import type { SubscriptionViewDto } from '@shared/api-contract';
import { GRANT_STATUS_TEXTS } from '@shared/tradingview-grants';
import type { MemberGrantStatus } from '@shared/tradingview-grants';
import type { SiteSettings } from '@shared/site';
import { APP_QUERY_DEFAULTS, renderWithAuth, stubApi, TEST_SITE_SETTINGS, type ApiRoute } from '@client/test/render';
import { ExternalNavigationContext } from './settings-environment';
import { SettingsPage } from './settings-page';

// account-card.test.tsx finds this address in the wrong-username warning.
const SETTINGS = { ...TEST_SITE_SETTINGS, supportEmail: 'support@candlewise.test' };

export const TEST_USER = {
  id: '6c1f1d7e-3f0a-4b53-9a43-3d0d7d1c9a01',
  email: 'jane@example.com',
  name: 'jane@example.com',
  createdAt: '2025-03-04T10:00:00.000Z',
  updatedAt: '2025-03-04T10:00:00.000Z',
  emailVerified: false,
  image: null,
};

/** An active monthly member who bought on 2025-03-04 for $36.00 and renews on 2099-01-01. */
export function subscriptionDto(overrides: Partial<SubscriptionViewDto> = {}): SubscriptionViewDto {
  return {
    planType: 'monthly',
    isActive: true,
    isCanceled: false,
    status: 'active',
    expiresAt: '2099-01-01T12:00:00.000Z',
    purchaseDate: '2025-03-04T12:00:00.000Z',
    amount: 3600,
    currency: 'usd',
    tradingviewUsername: 'trader_jane',
    canCancel: true,
    latestPlanType: 'monthly',
    boughtOn: null,
    ...overrides,
  };
}

/** The scripts a plan grants, by name (the member never reads their PUB; ids). */
export const TEST_SCRIPTS = [
  { id: 'PUB;candlewise-pro-v2', name: 'Candlewise Pro V2' },
  { id: 'PUB;candlewise-smart-money-concepts', name: 'Candlewise Smart Money Concepts' },
];

/** GET /api/tradingview/status as the TradingView module answers it. */
export function tradingviewStatus(username: string | null, status: MemberGrantStatus) {
  const message = {
    none: GRANT_STATUS_TEXTS.none,
    pending: GRANT_STATUS_TEXTS.pending,
    granted: GRANT_STATUS_TEXTS.granted,
    failed: GRANT_STATUS_TEXTS.failedUsername,
    revoked: GRANT_STATUS_TEXTS.revoked,
  }[status];
  const scripts = status === 'granted' || status === 'pending' || status === 'failed' ? TEST_SCRIPTS : [];
  return { username, status, message, expiresAt: status === 'granted' ? '2099-01-01T12:00:00.000Z' : null, scripts, nextChangeAt: null, changeDays: 7 };
}

function defaultRoutes(): Record<string, ApiRoute> {
  return {
    'GET /api/auth/get-session': {
      body: { user: TEST_USER, session: { id: 'session-1', expiresAt: '2099-01-01T00:00:00.000Z' } },
    },
    'GET /api/access': { body: { hasAccess: true } },
    'GET /api/subscription': { body: subscriptionDto() },
    'GET /api/tradingview/status': { body: tradingviewStatus('trader_jane', 'granted') },
    'POST /api/check-subscription': { body: { success: true } },
    'GET /api/invoices': { body: { invoices: [] } },
    'POST /api/auth/sign-out': { body: { success: true } },
  };
}

/** Replaces `fetch` with a table of routes ('METHOD /path') over the member's defaults; unknown routes answer 404. */
export function mockApi(routes: Record<string, ApiRoute> = {}) {
  return stubApi({ ...defaultRoutes(), ...routes });
}

/** Renders /dashboard/settings (or `url`) inside the app's providers. */
export function renderSettings(url = '/dashboard/settings', settings: SiteSettings = SETTINGS) {
  const externalNavigation = { assign: vi.fn<(url: string) => void>() };
  const view = renderWithAuth(
    [
      { path: '/dashboard/settings', element: <SettingsPage /> },
      { path: '/auth', element: <p>Sign-in page</p> },
      { path: '/', element: <p>Home page</p> },
    ],
    {
      path: url,
      settings,
      queries: APP_QUERY_DEFAULTS,
      wrap: (router) => <ExternalNavigationContext.Provider value={externalNavigation}>{router}</ExternalNavigationContext.Provider>,
    },
  );
  return { ...view, assign: externalNavigation.assign };
}
