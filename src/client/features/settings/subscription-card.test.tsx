import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_SUBSCRIPTION } from '@client/test/fixtures';
import { deferredReply, errorReply, findToast, resetAfterTest } from '@client/test/render';
import { mockApi, renderSettings, subscriptionDto } from './settings-test-kit';

afterEach(resetAfterTest);

const subscriptionCard = () => screen.findByRole('region', { name: 'Subscription' });

function rowValue(card: HTMLElement, label: string) {
  const value = within(card).getByText(label, { selector: 'dt' }).nextElementSibling;
  if (!(value instanceof HTMLElement)) throw new Error(`no value for ${label}`);
  return value;
}

describe('Subscription card states', () => {
  // Regression: the card showed no renewal date, nor the end date once canceled.
  it.each([
    { name: 'a running plan shows when it renews', dto: { expiresAt: '2099-03-05T12:00:00.000Z' }, label: 'Renews On', value: 'March 5, 2099' },
    { name: 'a canceled plan shows when it ends', dto: { isCanceled: true, canCancel: false, expiresAt: '2099-03-05T12:00:00.000Z' }, label: 'Ends On', value: 'March 5, 2099' },
    { name: 'a lifetime plan never renews', dto: { planType: 'lifetime' as const, expiresAt: null }, label: 'Renewal', value: 'None – lifetime access' },
  ])('$name', async ({ dto, label, value }) => {
    mockApi({ 'GET /api/subscription': { body: subscriptionDto(dto) } });
    renderSettings('/dashboard/settings?section=subscription');
    const card = await subscriptionCard();
    await within(card).findByText('Plan Type', { selector: 'dt' });
    expect(rowValue(card, label)).toHaveTextContent(value);
  });

  it.each([
    ['monthly', 'Billed every month'],
    ['quarterly', 'Billed every 3 months'],
    ['yearly', 'Billed every year'],
    ['lifetime', 'One-time payment'],
  ] as const)("says how %s is billed, from the plan's period", async (planType, billing) => {
    mockApi({ 'GET /api/subscription': { body: subscriptionDto({ planType, latestPlanType: planType }) } });
    renderSettings('/dashboard/settings?section=subscription');
    const card = await subscriptionCard();
    await within(card).findByText('Plan Type', { selector: 'dt' });
    expect(rowValue(card, 'Billing')).toHaveTextContent(billing);
  });

  it('shows a loading state while the subscription is read', async () => {
    const reply = deferredReply();
    mockApi({ 'GET /api/subscription': reply.route });
    renderSettings('/dashboard/settings?section=subscription');
    const card = await subscriptionCard();
    expect(within(card).getByText('Loading subscription...')).toBeInTheDocument();
    reply.resolve({ body: subscriptionDto() });
    expect(await within(card).findByText('Active')).toBeInTheDocument();
    expect(within(card).queryByText('Loading subscription...')).not.toBeInTheDocument();
  });

  it("shows 'Error loading subscription data' when the read fails, and Try Again reads again", async () => {
    const api = mockApi({ 'GET /api/subscription': errorReply(500, 'internal', 'Something went wrong on our side. Please try again.') });
    const user = userEvent.setup();
    renderSettings('/dashboard/settings?section=subscription');
    const card = await subscriptionCard();
    expect(await within(card).findByRole('alert')).toHaveTextContent('Error loading subscription data');

    api.set('GET /api/subscription', { body: subscriptionDto() });
    await user.click(within(card).getByRole('button', { name: 'Try Again' }));
    expect(await within(card).findByText('Active')).toBeInTheDocument();
  });

  it("shows 'No subscription found' with 'Get Subscription' to /#pricing", async () => {
    mockApi({ 'GET /api/subscription': { body: NO_SUBSCRIPTION } });
    renderSettings('/dashboard/settings?section=subscription');
    const card = await subscriptionCard();
    expect(await within(card).findByText('No subscription found')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Get Subscription' })).toHaveAttribute('href', '/#pricing');
    expect(within(card).queryByRole('button', { name: 'Manage Subscription' })).not.toBeInTheDocument();
  });

  it('shows an active subscription: green dot, plan, purchase date and price', async () => {
    mockApi({
      'GET /api/subscription': {
        body: subscriptionDto({ planType: 'yearly', purchaseDate: '2025-02-10T12:00:00.000Z', amount: 20400, currency: 'usd' }),
      },
    });
    renderSettings('/dashboard/settings?section=subscription');
    const card = await subscriptionCard();
    await within(card).findByText('Active');
    expect(within(card).getByTestId('subscription-status-dot')).toHaveAttribute('data-dot', 'green');
    expect(within(card).queryByText(/Access until/)).not.toBeInTheDocument();
    expect(rowValue(card, 'Plan Type')).toHaveTextContent('Yearly');
    expect(rowValue(card, 'Purchase Date')).toHaveTextContent('February 10, 2025');
    expect(rowValue(card, 'Price')).toHaveTextContent('$204.00');
    expect(within(card).getByRole('button', { name: 'Manage Subscription' })).toBeEnabled();
  });

  it("shows 'Pending Cancellation' with 'Access until {date}' and a grey dot for a canceled plan", async () => {
    mockApi({
      'GET /api/subscription': {
        body: subscriptionDto({ isCanceled: true, canCancel: false, expiresAt: '2099-01-01T12:00:00.000Z', currency: 'eur', amount: 2999 }),
      },
    });
    renderSettings('/dashboard/settings?section=subscription');
    const card = await subscriptionCard();
    expect(await within(card).findByText('Pending Cancellation')).toBeInTheDocument();
    expect(within(card).getByText('Access until January 1, 2099')).toBeInTheDocument();
    expect(within(card).getByTestId('subscription-status-dot')).toHaveAttribute('data-dot', 'grey');
    expect(rowValue(card, 'Price')).toHaveTextContent('€29.99');
  });

  it("shows 'Pending Cancellation' for a plan that no longer grants access", async () => {
    mockApi({ 'GET /api/subscription': { body: subscriptionDto({ isActive: false, expiresAt: null }) } });
    renderSettings('/dashboard/settings?section=subscription');
    const card = await subscriptionCard();
    expect(await within(card).findByText('Pending Cancellation')).toBeInTheDocument();
    expect(within(card).queryByText(/Access until/)).not.toBeInTheDocument();
    expect(within(card).getByTestId('subscription-status-dot')).toHaveAttribute('data-dot', 'grey');
  });

  it('leaves the price out when amount or currency is missing', async () => {
    mockApi({ 'GET /api/subscription': { body: subscriptionDto({ amount: null, currency: null }) } });
    renderSettings('/dashboard/settings?section=subscription');
    const card = await subscriptionCard();
    await within(card).findByText('Active');
    expect(within(card).queryByText('Price')).not.toBeInTheDocument();
  });

  it('the refresh button syncs with the payment provider, then shows the new state', async () => {
    const api = mockApi();
    const user = userEvent.setup();
    renderSettings('/dashboard/settings?section=subscription');
    const card = await subscriptionCard();
    await within(card).findByText('Active');

    api.set('GET /api/subscription', { body: subscriptionDto({ isCanceled: true }) });
    await user.click(within(card).getByRole('button', { name: 'Refresh subscription status' }));
    expect(await within(card).findByText('Pending Cancellation')).toBeInTheDocument();
    const sync = api.calls.findIndex((call) => call.path === '/api/check-subscription');
    const lastRead = api.calls.findLastIndex((call) => call.path === '/api/subscription');
    expect(sync).toBeGreaterThan(-1);
    expect(lastRead).toBeGreaterThan(sync);
  });
});

describe('Manage Subscription', () => {
  it('opens the billing portal at the url the server returns', async () => {
    const api = mockApi({ 'POST /api/customer-portal': { body: { url: 'https://billing.example.com/session/abc' } } });
    const user = userEvent.setup();
    const { assign } = renderSettings('/dashboard/settings?section=subscription');
    const card = await subscriptionCard();
    await user.click(await within(card).findByRole('button', { name: 'Manage Subscription' }));
    await expect.poll(() => assign.mock.calls).toEqual([['https://billing.example.com/session/abc']]);
    expect(api.callsTo('POST', '/api/customer-portal')).toHaveLength(1);
  });

  it("answers configurationRequired with 'Setup Required' and a link to the setup page", async () => {
    mockApi({
      'POST /api/customer-portal': {
        body: { configurationRequired: true, setupUrl: 'https://dashboard.stripe.com/test/settings/billing/portal' },
      },
    });
    const user = userEvent.setup();
    const { assign } = renderSettings('/dashboard/settings?section=subscription');
    const card = await subscriptionCard();
    await user.click(await within(card).findByRole('button', { name: 'Manage Subscription' }));

    const notice = await within(card).findByRole('alert');
    expect(notice).toHaveTextContent('Setup Required');
    expect(within(notice).getByRole('link', { name: /Open the portal settings/ })).toHaveAttribute(
      'href',
      'https://dashboard.stripe.com/test/settings/billing/portal',
    );
    expect(await findToast('Setup Required')).toBeInTheDocument();
    expect(screen.getAllByText('Your Stripe Customer Portal needs to be configured first. Please set it up in your Stripe dashboard.').length).toBeGreaterThan(0);
    expect(assign).not.toHaveBeenCalled();
  });

  it("maps a 'portal not configured' error to 'Setup Required'", async () => {
    mockApi({
      'POST /api/customer-portal': errorReply(409, 'portal_not_configured', 'Customer portal not configured. Activate it in the Stripe dashboard.'),
    });
    const user = userEvent.setup();
    renderSettings('/dashboard/settings?section=subscription');
    const card = await subscriptionCard();
    await user.click(await within(card).findByRole('button', { name: 'Manage Subscription' }));
    expect(await screen.findByText('Setup Required', { selector: '[data-title]' })).toBeInTheDocument();
  });

  it.each([
    errorReply(500, 'internal', 'Something went wrong on our side. Please try again.'),
    errorReply(404, 'no_customer', 'No Stripe customer found for this account.'),
  ])("shows 'Error' – 'Could not access subscription management. Please try again.' for %j", async (reply) => {
    mockApi({ 'POST /api/customer-portal': reply });
    const user = userEvent.setup();
    const { assign } = renderSettings('/dashboard/settings?section=subscription');
    const card = await subscriptionCard();
    await user.click(await within(card).findByRole('button', { name: 'Manage Subscription' }));
    expect(await screen.findByText('Error', { selector: '[data-title]' })).toBeInTheDocument();
    expect(screen.getByText('Could not access subscription management. Please try again.')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    expect(within(card).getByRole('button', { name: 'Manage Subscription' })).toBeEnabled();
  });
});
