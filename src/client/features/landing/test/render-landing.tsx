// Test harness for landing components: the real providers, with `fetch` answered by a fake server.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { DEFAULT_REGULAR_PRICES, DEFAULT_SALE_LABEL } from '@shared/campaign';
import { ADVERTISED_PRICES } from '@shared/plans';
import type { SiteSettings } from '@shared/site';
import { Toaster } from '@client/components/ui/toaster';
import { AuthProvider } from '@client/lib/auth-state';
import { SiteSettingsProvider } from '@client/lib/site-settings';
import { RouterNavProvider } from '@client/lib/router-nav';

export const SETTINGS: SiteSettings = {
  brandName: 'Candlewise',
  brandSlug: 'candlewise',
  brandLogoUrl: '/favicon.svg',
  supportEmail: 'support@candlewise.test',
  companyName: 'Candlewise LLC',
  companyState: 'New Mexico',
  discordInviteUrl: 'https://discord.gg/candlewise-test',
  docsUrl: 'https://docs.candlewise.test',
  chatUrl: null,
  saleEndsAt: '2099-11-26T23:59:59',
  metaPixelId: null,
  prices: { ...ADVERTISED_PRICES },
  saleLabel: DEFAULT_SALE_LABEL,
  regularPrices: { ...DEFAULT_REGULAR_PRICES },
  sandbox: ['payments'],
};

type Handler = (body: unknown) => { status?: number; body: unknown } | Promise<{ status?: number; body: unknown }>;
export type Routes = Record<string, Handler>;

/** Installs a fake `fetch`: routes are keyed 'METHOD /path'; every call is recorded with its JSON body. */
export function fakeServer(routes: Routes) {
  const calls: { key: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ key, body });
    const handler = routes[key];
    const answer = handler ? await handler(body) : { status: 404, body: { error: { code: 'not_found', message: `No route ${key}` } } };
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  });
  globalThis.fetch = fetchMock as unknown as typeof fetch;
  return { calls, callsTo: (key: string) => calls.filter((call) => call.key === key) };
}

export const signedIn = (email = 'member@example.com') => ({
  'GET /api/auth/get-session': () => ({ body: { user: { id: 'user-1', email, name: '', createdAt: '2026-01-01T00:00:00.000Z' }, session: { id: 's1', expiresAt: '2099-01-01T00:00:00.000Z' } } }),
});
export const anonymous = () => ({ 'GET /api/auth/get-session': () => ({ body: null }) });

export function renderWithProviders(ui: ReactNode, { settings = SETTINGS, path = '/' }: { settings?: SiteSettings; path?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <SiteSettingsProvider initial={settings}>
        <AuthProvider>
          <MemoryRouter initialEntries={[path]}>
            <RouterNavProvider>{ui}</RouterNavProvider>
          </MemoryRouter>
          <Toaster />
        </AuthProvider>
      </SiteSettingsProvider>
    </QueryClientProvider>,
  );
}

/** A response the test releases when it wants, to see the state while a call is in flight. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
