import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionViewDto } from '@shared/api-contract';
import type { PlanType } from '@shared/plans';
import { Toaster } from '@client/components/ui/toaster';
import { AuthProvider } from '@client/lib/auth-state';
import { SiteSettingsProvider } from '@client/lib/site-settings';
import { TEST_SITE_SETTINGS } from '@client/test/render';
import { PremiumAccessRequiredPage } from './premium-access-required-page';

type Reply = { status?: number; body?: unknown };
const MEMBER = { id: 'user-1', email: 'lapsed@example.com', name: 'lapsed', createdAt: '2026-01-01T00:00:00.000Z' };
const SIGNED_IN: Reply = { body: { user: MEMBER, session: { id: 'session-1', expiresAt: '2099-01-01T00:00:00.000Z' } } };

function subscription(latestPlanType: PlanType | null): Reply {
  const body: SubscriptionViewDto = {
    planType: latestPlanType,
    isActive: false,
    isCanceled: latestPlanType !== null,
    status: latestPlanType ? 'canceled' : null,
    expiresAt: null,
    purchaseDate: null,
    amount: null,
    currency: null,
    tradingviewUsername: null,
    canCancel: false,
    latestPlanType,
  };
  return { body };
}

let calls: { key: string; body: unknown }[] = [];

function mockApi(routes: Record<string, Reply>) {
  const table: Record<string, Reply> = { 'GET /api/auth/get-session': SIGNED_IN, 'GET /api/access': { body: { hasAccess: false } }, 'POST /api/auth/sign-out': { body: { success: true } }, ...routes };
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const key = `${init?.method ?? 'GET'} ${url.pathname}`;
      calls.push({ key, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      const reply = table[key] ?? { status: 404, body: { error: { code: 'not_found', message: key } } };
      return new Response(JSON.stringify(reply.body ?? null), { status: reply.status ?? 200, headers: { 'content-type': 'application/json' } });
    }),
  );
}

function Landed() {
  const location = useLocation();
  return <p data-testid="landed">{`${location.pathname}${location.search}${location.hash}`}</p>;
}

function renderPage() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const router = createMemoryRouter(
    [
      { path: '/premium-access-required', element: <PremiumAccessRequiredPage /> },
      { path: '*', element: <Landed /> },
    ],
    { initialEntries: ['/premium-access-required'] },
  );
  render(
    <QueryClientProvider client={queryClient}>
      <SiteSettingsProvider initial={TEST_SITE_SETTINGS}>
        <AuthProvider>
          <RouterProvider router={router} />
          <Toaster />
        </AuthProvider>
      </SiteSettingsProvider>
    </QueryClientProvider>,
  );
  return router;
}

const original = window.location;
let assign: ReturnType<typeof vi.fn>;
beforeEach(() => {
  assign = vi.fn();
  Object.defineProperty(window, 'location', { configurable: true, value: { ...original, href: original.href, assign, reload: vi.fn() } });
});
afterEach(() => {
  toast.dismiss();
  cleanup();
  vi.unstubAllGlobals();
  Object.defineProperty(window, 'location', { configurable: true, value: original });
});

describe('/premium-access-required', () => {
  it('sends a signed-out visitor to sign in, and back here afterwards', async () => {
    mockApi({ 'GET /api/auth/get-session': { body: null } });
    const router = renderPage();
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth'));
    expect(router.state.location.search).toBe('?redirect=/premium-access-required');
  });

  it("with no subscription history: the general message and 'Get Premium Access' to pricing", async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/subscription': subscription(null) });
    const router = renderPage();
    expect(await screen.findByText('You need an active subscription to access the dashboard.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Choose Another Plan' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Reactivate/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Get Premium Access' }));
    expect(router.state.location).toMatchObject({ pathname: '/', hash: '#prices' });
  });

  it("with a Lifetime purchase: the support message and only 'Choose Another Plan'", async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/subscription': subscription('lifetime') });
    const router = renderPage();
    expect(await screen.findByText('Your Lifetime subscription seems to have an issue. Please contact support or choose a new plan.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Reactivate/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Get Premium Access' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Choose Another Plan' }));
    expect(router.state.location).toMatchObject({ pathname: '/', hash: '#prices' });
  });

  it('with a lapsed plan: reactivation starts a checkout for that plan and follows its url', async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/subscription': subscription('quarterly'), 'POST /api/create-checkout': { body: { url: '/sandbox/checkout/cs_sbx_9', sessionId: 'cs_sbx_9' } } });
    renderPage();
    expect(await screen.findByText(/^Your Quarterly subscription is no longer active/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Choose Another Plan' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reactivate Quarterly Plan' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/sandbox/checkout/cs_sbx_9'));
    expect(calls.find((call) => call.key === 'POST /api/create-checkout')?.body).toMatchObject({ planType: 'quarterly', customerEmail: MEMBER.email, originPage: '/' });
  });

  it('an EU plan is reactivated from the EU page', async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/subscription': subscription('euMonthly'), 'POST /api/create-checkout': { body: { url: '/sandbox/checkout/cs_sbx_eu', sessionId: 'cs_sbx_eu' } } });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Reactivate Monthly Plan' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/sandbox/checkout/cs_sbx_eu'));
    expect(calls.find((call) => call.key === 'POST /api/create-checkout')?.body).toMatchObject({ planType: 'euMonthly', originPage: '/eu' });
  });

  it.each([
    [{ status: 500, body: { error: { code: 'internal', message: 'boom' } } }, 'Could not create checkout. Please try again.'],
    [{ body: { url: '', sessionId: 'cs_x' } }, 'No checkout URL received'],
  ])('shows the reactivation failure %#', async (reply, description) => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/subscription': subscription('monthly'), 'POST /api/create-checkout': reply });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Reactivate Monthly Plan' }));
    expect(await screen.findByText(description)).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
  });

  it('Sign Out signs out and goes home', async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/subscription': subscription(null) });
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect(calls.some((call) => call.key === 'POST /api/auth/sign-out')).toBe(true);
  });

  it('Back to Homepage goes home', async () => {
    const user = userEvent.setup();
    mockApi({ 'GET /api/subscription': subscription('monthly') });
    const router = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Back to Homepage' }));
    expect(router.state.location.pathname).toBe('/');
  });

  it('sends a member whose access is back to the dashboard', async () => {
    mockApi({ 'GET /api/access': { body: { hasAccess: true } }, 'GET /api/subscription': subscription('monthly') });
    const router = renderPage();
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
  });
});
