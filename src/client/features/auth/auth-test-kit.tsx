// Test harness for the account screens: the app's real providers (query client, site settings,
// auth state, router, toasts) with `fetch` replaced at the network boundary by a table of answers.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { toast } from 'sonner';
import { vi } from 'vitest';
import type { SiteSettings } from '@shared/site';
import { ADVERTISED_PRICES } from '@shared/plans';
import { Toaster } from '@client/components/ui/toaster';
import { AuthProvider } from '@client/lib/auth-state';
import { SiteSettingsProvider } from '@client/lib/site-settings';

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

export const TEST_USER = { id: 'u-1', email: 'ada@example.com', name: 'ada', createdAt: '2025-01-01T00:00:00.000Z' };
export const sessionBody = (id = 's-1') => ({ user: TEST_USER, session: { id, expiresAt: '2099-01-01T00:00:00.000Z' } });

export type Reply = { status?: number; body?: unknown } | 'network-failure';
export type Call = { method: string; path: string; search: string; body: unknown };
type Route = Reply | ((call: Call) => Reply | Promise<Reply>);

/** Replaces `fetch` with a table of routes ('METHOD /path'); unknown routes answer 404. */
export function mockApi(routes: Record<string, Route>) {
  const table: Record<string, Route> = { 'GET /api/auth/get-session': { body: null }, ...routes };
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const call = { method, path: url.pathname, search: url.search, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined };
      calls.push(call);
      const route = table[`${method} ${url.pathname}`];
      const reply = route === undefined ? { status: 404, body: { error: { code: 'not_found', message: 'nope' } } } : typeof route === 'function' ? await route(call) : route;
      if (reply === 'network-failure') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(reply.body ?? null), { status: reply.status ?? 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return {
    calls,
    set(key: string, route: Route) {
      table[key] = route;
    },
    callsTo: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path),
  };
}

/** A reply that arrives only when the test says so, to observe loading states. */
export function deferred() {
  let resolve!: (reply: Reply) => void;
  const promise = new Promise<Reply>((done) => {
    resolve = done;
  });
  return { route: () => promise, resolve };
}

function Destination({ name }: { name: string }) {
  const location = useLocation();
  return (
    <p data-testid="destination">
      {name} {location.pathname}
      {location.search}
    </p>
  );
}

/** Renders `element` at `url` with the providers and stand-ins for the pages it may go to. */
export function renderAt(path: string, element: ReactElement, url: string) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: 30_000, refetchOnWindowFocus: false }, mutations: { retry: false } },
  });
  const router = createMemoryRouter(
    [
      { path, element },
      { path: '/', element: <Destination name="Home page" /> },
      { path: '/eu', element: <Destination name="EU home page" /> },
      { path: '/auth', element: <Destination name="Sign-in page" /> },
      { path: '/dashboard', element: <Destination name="Dashboard" /> },
      { path: '/dashboard/*', element: <Destination name="Dashboard" /> },
      { path: '/premium-access-required', element: <Destination name="Premium access required" /> },
      { path: '/forgot-password', element: <Destination name="Forgot password page" /> },
    ],
    { initialEntries: [url] },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <SiteSettingsProvider initial={TEST_SITE_SETTINGS}>
        <AuthProvider>
          <RouterProvider router={router} />
          <Toaster />
        </AuthProvider>
      </SiteSettingsProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}

/** Run after each test: unmounts (vitest globals are off, so RTL cannot), restores fetch and timers. */
export function resetAuthTest() {
  toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
}
