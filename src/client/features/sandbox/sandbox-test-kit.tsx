// Rendering helpers for the sandbox pages' component tests: real providers, fetch mocked at the
// network boundary with a small router of canned answers.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { vi } from 'vitest';
import { ADVERTISED_PRICES } from '@shared/plans';
import type { SiteSettings } from '@shared/site';
import { Toaster } from '@client/components/ui/toaster';
import { SiteSettingsProvider } from '@client/lib/site-settings';

export const SETTINGS: SiteSettings = {
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

export type Answer = { status?: number; body: unknown; delay?: Promise<void> };
export type Handler = (request: { method: string; url: string; body: unknown }) => Answer | undefined;

/** Stubs fetch; each call goes to `handler`, which answers or leaves it to a 404. */
export function mockFetch(handler: Handler) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const call = { method: init?.method ?? 'GET', url, body: init?.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    const answer = handler(call) ?? { status: 404, body: { error: { code: 'not_found', message: 'Not found.' } } };
    if (answer.delay) await answer.delay;
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

export function renderAt(path: string, routePath: string, element: ReactNode, settings: SiteSettings = SETTINGS) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <SiteSettingsProvider initial={settings}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path={routePath} element={element} />
          </Routes>
        </MemoryRouter>
        <Toaster />
      </SiteSettingsProvider>
    </QueryClientProvider>,
  );
}
