// Test helpers for the payment pages: the app's providers around a memory router, and `fetch`
// replaced at the network boundary by a table of JSON answers (which may wait or fail).
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { toast } from 'sonner';
import { vi } from 'vitest';
import type { SiteSettings } from '@shared/site';
import { Toaster } from '@client/components/ui/toaster';
import { AuthProvider } from '@client/lib/auth-state';
import { SiteSettingsProvider } from '@client/lib/site-settings';
import { resetTrackingForTests } from '@client/lib/tracking';
import { TEST_SITE_SETTINGS } from '@client/test/render';

export type ApiReply = { status?: number; body?: unknown } | 'network-error';
export type ApiCall = { method: string; path: string; body: unknown };
type Route = ApiReply | ((call: ApiCall) => ApiReply | Promise<ApiReply>);

export const errorReply = (status: number, code: string, message: string): ApiReply => ({ status, body: { error: { code, message } } });

export const BUYER = { id: 'user-1', email: 'buyer@example.com', name: 'buyer', createdAt: '2026-01-01T00:00:00.000Z' };
export const signedIn = (user = BUYER, sessionId = 'session-1') => ({ body: { user, session: { id: sessionId, expiresAt: '2099-01-01T00:00:00.000Z' } } });
export const signedOut = { body: null };

/** A reply that arrives only when the test says so, to observe loading states. */
export function deferredReply() {
  let resolve!: (reply: ApiReply) => void;
  const promise = new Promise<ApiReply>((done) => {
    resolve = done;
  });
  return { route: () => promise, resolve };
}

/** Replaces `fetch` with a table of routes ('METHOD /path'); unknown routes answer 404. */
export function mockApi(routes: Record<string, Route>) {
  const table: Record<string, Route> = { 'GET /api/auth/get-session': signedOut, 'GET /api/access': { body: { hasAccess: false } }, ...routes };
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      const call = { method, path: url.pathname, body };
      calls.push(call);
      const route = table[`${method} ${url.pathname}`];
      const reply = route === undefined ? errorReply(404, 'not_found', `No API route ${method} ${url.pathname}`) : typeof route === 'function' ? await route(call) : route;
      if (reply === 'network-error') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(reply.body ?? null), { status: reply.status ?? 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return {
    calls,
    set(key: string, route: Route) {
      table[key] = route;
    },
    callsTo(method: string, path: string) {
      return calls.filter((call) => call.method === method && call.path === path);
    },
  };
}

/** Shows where the router went, so a test can read the path and query it navigated to. */
function Landed({ name }: { name: string }) {
  const location = useLocation();
  return (
    <p data-testid="landed">
      {name} {location.pathname}
      {location.search}
      {location.hash}
    </p>
  );
}

/** Renders `routes` (plus stand-ins for the pages they lead to) inside the app's providers. */
export function renderPage(routes: RouteObject[], initialEntries: string[], settings: SiteSettings = TEST_SITE_SETTINGS) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      ...routes,
      { path: '/', element: <Landed name="Home page" /> },
      { path: '/eu', element: <Landed name="EU page" /> },
      { path: '/auth', element: <Landed name="Sign-in page" /> },
      { path: '/dashboard', element: <Landed name="Dashboard page" /> },
    ],
    { initialEntries, initialIndex: initialEntries.length - 1 },
  );
  const view = render(
    <QueryClientProvider client={queryClient}>
      <SiteSettingsProvider initial={settings}>
        <AuthProvider>
          <RouterProvider router={router} />
          <Toaster />
        </AuthProvider>
      </SiteSettingsProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}

/** Replaces window.location for the test so reload and assign can be observed. */
export function stubLocation() {
  const original = window.location;
  const reload = vi.fn();
  const assign = vi.fn();
  Object.defineProperty(window, 'location', { configurable: true, value: { ...original, href: original.href, reload, assign } });
  return {
    reload,
    assign,
    restore: () => Object.defineProperty(window, 'location', { configurable: true, value: original }),
  };
}

/** Run after each test: sonner keeps toasts in a module store; fetch, spies, timers and the pixel are reset. */
export function resetPaymentTest() {
  toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
  resetTrackingForTests();
}
