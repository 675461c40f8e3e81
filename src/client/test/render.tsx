import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import type { SiteSettings } from '@shared/site';
import { SiteSettingsProvider } from '@client/lib/site-settings';

export const TEST_SITE_SETTINGS: SiteSettings = {
  brandName: 'Candlewise',
  brandSlug: 'candlewise',
  supportEmail: 'support@candlewise.app',
  companyName: 'Candlewise LLC',
  companyState: 'New Mexico',
  discordInviteUrl: 'https://discord.gg/candlewise',
  docsUrl: 'https://docs.candlewise.app',
  chatUrl: null,
  saleEndsAt: '2099-11-26T23:59:59',
  metaPixelId: null,
  prices: { monthly: 3600, quarterly: 7200, yearly: 20400, lifetime: 54999, euMonthly: 2999, euQuarterly: 5999 },
  sandbox: ['payments', 'tradingview', 'mail'],
};

/** Renders routes in a memory router with a fresh query client and the given site settings. */
export function renderRoutes(
  routes: RouteObject[],
  { path = '/', settings = TEST_SITE_SETTINGS, wrap = (node: ReactNode) => node }: { path?: string; settings?: SiteSettings; wrap?: (node: ReactNode) => ReactNode } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <SiteSettingsProvider initial={settings}>{wrap(<RouterProvider router={router} />)}</SiteSettingsProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}

/** A fetch stand-in answering JSON by "METHOD /path"; unknown calls answer 404 in the API shape. */
export function mockFetch(answers: Record<string, { status?: number; body: unknown } | ((init?: RequestInit) => { status?: number; body: unknown })>) {
  const calls: { key: string; body: unknown }[] = [];
  const fetchMock = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const answer = answers[key];
    const resolved = typeof answer === 'function' ? answer(init) : answer;
    const { status = 200, body } = resolved ?? { status: 404, body: { error: { code: 'not_found', message: `no mock for ${key}` } } };
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  globalThis.fetch = fetchMock as typeof fetch;
  return calls;
}
