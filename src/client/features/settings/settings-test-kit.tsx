// Test harness for the settings feature: the real providers (auth, site settings, query client,
// router, toasts) with `fetch` replaced at the network boundary by a table of JSON answers.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { toast } from 'sonner';
import { vi } from 'vitest';
import type { SubscriptionViewDto } from '@shared/api-contract';
import { ADVERTISED_PRICES } from '@shared/plans';
import type { SiteSettings } from '@shared/site';
import { GRANT_STATUS_TEXTS } from '@shared/tradingview-grants';
import type { MemberGrantStatus } from '@shared/tradingview-grants';
import { Toaster } from '@client/components/ui/toaster';
import { AuthProvider } from '@client/lib/auth-state';
import { SiteSettingsProvider } from '@client/lib/site-settings';
import { ExternalNavigationContext } from './settings-environment';
import { SettingsPage } from './settings-page';

export const TEST_SITE_SETTINGS: SiteSettings = {
  brandName: 'Candlewise',
  brandSlug: 'candlewise',
  supportEmail: 'support@candlewise.test',
  companyName: 'Candlewise LLC',
  companyState: 'New Mexico',
  discordInviteUrl: 'https://discord.gg/candlewise',
  docsUrl: 'https://docs.candlewise.test',
  chatUrl: null,
  saleEndsAt: '2099-11-26T23:59:59',
  metaPixelId: null,
  prices: { ...ADVERTISED_PRICES },
  sandbox: ['payments', 'tradingview', 'mail'],
};

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
    ...overrides,
  };
}

/** GET /api/tradingview/status as the TradingView module answers it. */
export function tradingviewStatus(username: string | null, status: MemberGrantStatus) {
  const message = {
    none: GRANT_STATUS_TEXTS.none,
    pending: GRANT_STATUS_TEXTS.pending,
    granted: GRANT_STATUS_TEXTS.granted,
    failed: GRANT_STATUS_TEXTS.failedUsername,
    revoked: GRANT_STATUS_TEXTS.revoked,
  }[status];
  return { username, status, message, expiresAt: status === 'granted' ? '2099-01-01T12:00:00.000Z' : null };
}

export const NO_SUBSCRIPTION: SubscriptionViewDto = {
  planType: null,
  isActive: false,
  isCanceled: false,
  status: null,
  expiresAt: null,
  purchaseDate: null,
  amount: null,
  currency: null,
  tradingviewUsername: null,
  canCancel: false,
  latestPlanType: null,
};

/** Run after each test: unmounts (vitest globals are off, so RTL cannot), restores fetch, spies and timers. */
export function resetSettingsTest() {
  // sonner keeps toasts in a module-level store and replays active ones to a new <Toaster>.
  toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
}

export type ApiReply = { status?: number; body?: unknown };
export type ApiCall = { method: string; path: string; body: unknown; at: number };
type Route = ApiReply | ((call: ApiCall) => ApiReply | Promise<ApiReply>);

export const errorReply = (status: number, code: string, message: string): ApiReply => ({
  status,
  body: { error: { code, message } },
});

/** A reply that arrives only when the test says so, to observe loading states. */
export function deferredReply() {
  let resolve!: (reply: ApiReply) => void;
  const promise = new Promise<ApiReply>((done) => {
    resolve = done;
  });
  return { route: () => promise, resolve };
}

function defaultRoutes(): Record<string, Route> {
  return {
    'GET /api/auth/get-session': {
      body: { user: TEST_USER, session: { id: 'session-1', expiresAt: '2099-01-01T00:00:00.000Z' } },
    },
    'GET /api/access': { body: { hasAccess: true } },
    'GET /api/subscription': { body: subscriptionDto() },
    'GET /api/tradingview/status': { body: tradingviewStatus('trader_jane', 'granted') },
    'POST /api/check-subscription': { body: { success: true } },
    'POST /api/auth/sign-out': { body: { success: true } },
  };
}

/** Replaces `fetch` with a table of routes ('METHOD /path'); unknown routes answer 404. */
export function mockApi(routes: Record<string, Route> = {}) {
  const table: Record<string, Route> = { ...defaultRoutes(), ...routes };
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const call = { method, path: url.pathname, body, at: Date.now() };
    calls.push(call);
    const route = table[`${method} ${url.pathname}`];
    const reply = route === undefined
      ? errorReply(404, 'not_found', `No API route ${method} ${url.pathname}`)
      : typeof route === 'function'
        ? await route(call)
        : route;
    return new Response(JSON.stringify(reply.body ?? null), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    /** Replaces one route mid-test. */
    set(key: string, route: Route) {
      table[key] = route;
    },
    callsTo(method: string, path: string) {
      return calls.filter((call) => call.method === method && call.path === path);
    },
  };
}

/** Renders /dashboard/settings (or `url`) inside the app's providers. */
export function renderSettings(url = '/dashboard/settings') {
  // No automatic retries: a test's 500 should show its error state at once.
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
  const externalNavigation = { assign: vi.fn<(url: string) => void>() };
  const router = createMemoryRouter(
    [
      { path: '/dashboard/settings', element: <SettingsPage /> },
      { path: '/auth', element: <p>Sign-in page</p> },
      { path: '/', element: <p>Home page</p> },
    ],
    { initialEntries: [url] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <SiteSettingsProvider initial={TEST_SITE_SETTINGS}>
        <AuthProvider>
          <ExternalNavigationContext.Provider value={externalNavigation}>
            <RouterProvider router={router} />
            <Toaster />
          </ExternalNavigationContext.Provider>
        </AuthProvider>
      </SiteSettingsProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient, assign: externalNavigation.assign };
}
