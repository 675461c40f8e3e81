import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SubscriptionViewDto } from '@shared/api-contract';
import type { PlanType } from '@shared/plans';
import { NO_SUBSCRIPTION } from '@client/test/fixtures';
import { Landed, mockFetch, renderWithAuth, resetAfterTest, stubLocation } from '@client/test/render';
import { PremiumAccessRequiredPage } from './premium-access-required-page';

type Reply = { status?: number; body: unknown };
const MEMBER = { id: 'user-1', email: 'lapsed@example.com', name: 'lapsed', createdAt: '2026-01-01T00:00:00.000Z' };
const SIGNED_IN: Reply = { body: { user: MEMBER, session: { id: 'session-1', expiresAt: '2099-01-01T00:00:00.000Z' } } };

/** A member whose last plan ended (or who never had one, with null). */
function subscription(latestPlanType: PlanType | null): Reply {
  const body: SubscriptionViewDto = {
    ...NO_SUBSCRIPTION,
    planType: latestPlanType,
    isCanceled: latestPlanType !== null,
    status: latestPlanType ? 'canceled' : null,
    latestPlanType,
  };
  return { body };
}

let calls: { key: string; body: unknown }[] = [];

function mockApi(routes: Record<string, Reply>) {
  calls = mockFetch({
    'GET /api/auth/get-session': SIGNED_IN,
    'GET /api/access': { body: { hasAccess: false } },
    'POST /api/auth/sign-out': { body: { success: true } },
    ...routes,
  });
}

function renderPage() {
  const { router } = renderWithAuth(
    [
      { path: '/premium-access-required', element: <PremiumAccessRequiredPage /> },
      { path: '*', element: <Landed /> },
    ],
    { path: '/premium-access-required' },
  );
  return router;
}

let assign: ReturnType<typeof stubLocation>['assign'];
let restoreLocation: () => void;
beforeEach(() => {
  ({ assign, restore: restoreLocation } = stubLocation());
});
afterEach(() => {
  resetAfterTest();
  restoreLocation();
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
