// Shared helpers for client component tests: the app's real providers around a memory router, and
// `fetch` replaced at the network boundary by a table of JSON answers. Feature test kits add their
// own fixtures and default routes on top of these.
import { QueryClient, QueryClientProvider, type DefaultOptions } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { toast } from 'sonner';
import { vi } from 'vitest';
import { DEFAULT_REGULAR_PRICES, DEFAULT_SALE_LABEL } from '@shared/campaign';
import { ADVERTISED_PRICES } from '@shared/plans';
import type { SiteSettings } from '@shared/site';
import { Toaster } from '@client/components/ui/toaster';
import { AuthProvider } from '@client/lib/auth-state';
import { SiteSettingsProvider } from '@client/lib/site-settings';

export const TEST_SITE_SETTINGS: SiteSettings = {
  brandName: 'Candlewise',
  brandSlug: 'candlewise',
  brandLogoUrl: '/favicon.svg',
  supportEmail: 'support@candlewise.app',
  companyName: 'Candlewise LLC',
  companyState: 'New Mexico',
  discordInviteUrl: 'https://discord.gg/candlewise',
  docsUrl: 'https://docs.candlewise.app',
  chatUrl: null,
  saleEndsAt: '2099-11-26T23:59:59',
  metaPixelId: null,
  prices: { ...ADVERTISED_PRICES },
  saleLabel: DEFAULT_SALE_LABEL,
  regularPrices: { ...DEFAULT_REGULAR_PRICES },
  sandbox: ['payments', 'tradingview', 'discord', 'mail'],
};

/** The app's cache timing (lib/query-client.ts) without its retries, so a test's 500 shows at once. */
export const APP_QUERY_DEFAULTS = { staleTime: 30_000, refetchOnWindowFocus: false } satisfies DefaultOptions['queries'];

type RenderOptions = {
  /** The URL to open; a list is the history, with the URL to open last. */
  path?: string | string[];
  settings?: SiteSettings;
  /** Query defaults on top of `retry: false`, e.g. APP_QUERY_DEFAULTS. */
  queries?: DefaultOptions['queries'];
  /** Providers to put around the router, inside the query client and site settings. */
  wrap?: (node: ReactNode) => ReactNode;
};

/** Renders routes in a memory router with a fresh query client and the given site settings. */
export function renderRoutes(routes: RouteObject[], { path = '/', settings = TEST_SITE_SETTINGS, queries, wrap = (node) => node }: RenderOptions = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, ...queries }, mutations: { retry: false } } });
  const initialEntries = typeof path === 'string' ? [path] : path;
  const router = createMemoryRouter(routes, { initialEntries, initialIndex: initialEntries.length - 1 });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <SiteSettingsProvider initial={settings}>{wrap(<RouterProvider router={router} />)}</SiteSettingsProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}

/** renderRoutes with the real auth state (it reads the session through `fetch`) and the toaster. */
export function renderWithAuth(routes: RouteObject[], { wrap = (node) => node, ...options }: RenderOptions = {}) {
  return renderRoutes(routes, {
    ...options,
    wrap: (router) => (
      <AuthProvider>
        {wrap(router)}
        <Toaster />
      </AuthProvider>
    ),
  });
}

/** Stands in for a page a test may navigate to: its name, then the path, query and hash reached. */
export function Landed({ name, testId = 'landed' }: { name?: string; testId?: string }) {
  const location = useLocation();
  return (
    <p data-testid={testId}>
      {name} {location.pathname}
      {location.search}
      {location.hash}
    </p>
  );
}

/** For afterEach: unmounts (vitest globals are off, so RTL cannot), restores fetch, spies and timers. */
export function resetAfterTest() {
  // sonner keeps toasts in a module-level store and replays active ones to a new <Toaster>.
  toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
}

/**
 * The toast titled `title`, found by sonner's own markup: a page that also says the notice beside
 * its form holds the same text twice, and a query by text alone matches the toast only once it has
 * gone.
 */
export async function findToast(title: string): Promise<HTMLElement> {
  const heading = await screen.findByText(title, { selector: '[data-title]' });
  const toastItem = heading.closest<HTMLElement>('[data-sonner-toast]');
  if (!toastItem) throw new Error(`"${title}" is not in a toast`);
  return toastItem;
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

/** The answer a stubbed `fetch` gives: JSON, as the API sends it. */
export function jsonResponse(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** The URL a `fetch` call was given, as written (relative paths stay relative). */
export function requestUrl(input: RequestInfo | URL) {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}

/** An answer in the API's one error shape. */
export const errorReply = (status: number, code: string, message: string) => ({ status, body: { error: { code, message } } });

/** A fetch stand-in answering JSON by "METHOD /path"; unknown calls answer 404 in the API shape. */
export function mockFetch(answers: Record<string, { status?: number; body: unknown } | ((init?: RequestInit) => { status?: number; body: unknown })>) {
  const calls: { key: string; body: unknown }[] = [];
  const fetchMock = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(requestUrl(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const answer = answers[key];
    const resolved = typeof answer === 'function' ? answer(init) : answer;
    const { status = 200, body } = resolved ?? errorReply(404, 'not_found', `no mock for ${key}`);
    return jsonResponse(body, status);
  };
  globalThis.fetch = fetchMock as typeof fetch;
  return calls;
}

/** 'network-error' makes `fetch` reject, as it does when the server cannot be reached. */
export type ApiReply = { status?: number; body?: unknown } | 'network-error';
export type ApiCall = { method: string; path: string; search: string; body: unknown; at: number };
export type ApiRoute = ApiReply | ((call: ApiCall) => ApiReply | Promise<ApiReply>);

/** A reply that arrives only when the test says so, to observe loading states. */
export function deferredReply() {
  let resolve!: (reply: ApiReply) => void;
  const promise = new Promise<ApiReply>((done) => {
    resolve = done;
  });
  return { route: () => promise, resolve };
}

/**
 * Replaces `fetch` (until vi.unstubAllGlobals) with a table of routes ('METHOD /path'): a reply, or
 * a function of the call returning one. Unknown routes answer 404; every call is recorded with
 * its time, so tests with fake timers can check when it was made.
 */
export function stubApi(routes: Record<string, ApiRoute>) {
  const table = { ...routes };
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(requestUrl(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      const call = { method, path: url.pathname, search: url.search, body, at: Date.now() };
      calls.push(call);
      const route = table[`${method} ${url.pathname}`] ?? errorReply(404, 'not_found', `No API route ${method} ${url.pathname}`);
      const reply = typeof route === 'function' ? await route(call) : route;
      if (reply === 'network-error') throw new TypeError('Failed to fetch');
      return jsonResponse(reply.body ?? null, reply.status);
    }),
  );
  return {
    calls,
    /** Replaces one route mid-test. */
    set(key: string, route: ApiRoute) {
      table[key] = route;
    },
    callsTo: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path),
  };
}
