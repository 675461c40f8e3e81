import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UpgradePreview } from '@shared/api-contract';
import { seedCatalogue } from '@shared/plans';
import { deferredReply, errorReply, resetAfterTest, TEST_SITE_SETTINGS } from '@client/test/render';
import { mockApi, renderSettings, subscriptionDto, TEST_USER } from './settings-test-kit';

afterEach(resetAfterTest);

const UPGRADE_URL = '/dashboard/settings?section=upgrade';

const QUARTERLY_PREVIEW: UpgradePreview = {
  currentPlan: 'monthly',
  newPlan: 'quarterly',
  prorationCredit: 2400,
  newPlanCharge: 7200,
  totalDue: 4800,
  currency: 'usd',
};

const planCard = async () => screen.findByRole('region', { name: 'Change Plan' });
const option = (card: HTMLElement, name: string) => within(card).getByRole('article', { name: `${name} plan` });

async function openQuarterlyPreview(routes: Parameters<typeof mockApi>[0] = {}) {
  const api = mockApi({ 'POST /api/preview-upgrade-cost': { body: QUARTERLY_PREVIEW }, ...routes });
  const user = userEvent.setup();
  const rendered = renderSettings(UPGRADE_URL);
  const card = await planCard();
  // As behind the dashboard's route guard, the first access check has answered.
  await expect.poll(() => api.callsTo('GET', '/api/access').length).toBe(1);
  await user.click(await within(card).findByRole('button', { name: 'Change to Quarterly' }));
  const dialog = await screen.findByRole('dialog', { name: 'Confirm Plan Change' });
  return { api, user, card, dialog, ...rendered };
}

describe('Change Plan card for an active monthly member', () => {
  it('shows the three default plans with badges, prices, savings, features and buttons', async () => {
    mockApi();
    renderSettings(UPGRADE_URL);
    const card = await planCard();
    await within(card).findByRole('button', { name: 'Current Plan' });

    const names = within(card).getAllByRole('article').map((article) => within(article).getByRole('heading').textContent);
    expect(names).toEqual(['Monthly', 'Quarterly', 'Yearly']);

    const monthly = option(card, 'Monthly');
    expect(within(monthly).getByText('Current Plan', { selector: 'span' })).toBeInTheDocument();
    expect(within(monthly).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
    expect(within(monthly).getByText('$47', { selector: 's' })).toBeInTheDocument();
    expect(within(monthly).getByText('$36')).toBeInTheDocument();
    expect(within(monthly).getByText('/month')).toBeInTheDocument();
    expect(within(monthly).getByText('Save 23%')).toBeInTheDocument();

    const quarterly = option(card, 'Quarterly');
    expect(within(quarterly).getByText('Most Popular')).toBeInTheDocument();
    expect(within(quarterly).queryByText('Current Plan')).not.toBeInTheDocument();
    expect(within(quarterly).getByText('$24')).toBeInTheDocument();
    expect(within(quarterly).getByText('Save 49%')).toBeInTheDocument();
    expect(within(quarterly).getByRole('button', { name: 'Change to Quarterly' })).toBeEnabled();

    const yearly = option(card, 'Yearly');
    expect(within(yearly).getByText('Save 64%')).toBeInTheDocument();
    expect(within(yearly).getByRole('button', { name: 'Change to Yearly' })).toBeEnabled();
    expect(within(yearly).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Premium Indicators',
      'Community Access',
      'Strategies & Update Guides',
      'Active Product Updates',
      'Trading Setups & Ideas',
      '24/7 Support',
      'VIP Discord',
    ]);
    expect(within(card).queryByText('Lifetime Plan Active – You already have the best plan!')).not.toBeInTheDocument();
  });

  // The sale ended: the settings cards follow the same campaign as the landing.
  it('after the sale ended, shows the regular $47 a month as Full Price with no sale wording', async () => {
    mockApi();
    renderSettings(UPGRADE_URL, { ...TEST_SITE_SETTINGS, saleEndsAt: '2025-11-26T23:59:59.000Z' });
    const card = await planCard();
    await within(card).findByRole('button', { name: 'Current Plan' });
    for (const name of ['Monthly', 'Quarterly', 'Yearly']) {
      const plan = option(card, name);
      expect(within(plan).getByText('$47')).not.toHaveClass('line-through');
      expect(within(plan).queryByText('$47', { selector: 's' })).not.toBeInTheDocument();
      expect(within(plan).getByText('Full Price')).toBeInTheDocument();
      expect(within(plan).queryByText(/^Save \d+%$/)).not.toBeInTheDocument();
      expect(within(plan).queryByText('Black Friday')).not.toBeInTheDocument();
    }
  });

  it("shows 'Loading Preview...' while previewing, then the credit, charge and total", async () => {
    const preview = deferredReply();
    const api = mockApi({ 'POST /api/preview-upgrade-cost': preview.route });
    const user = userEvent.setup();
    renderSettings(UPGRADE_URL);
    const card = await planCard();
    await user.click(await within(card).findByRole('button', { name: 'Change to Quarterly' }));

    expect(within(option(card, 'Quarterly')).getByRole('button', { name: 'Loading Preview...' })).toBeDisabled();
    expect(within(option(card, 'Yearly')).getByRole('button', { name: 'Change to Yearly' })).toBeDisabled();
    expect(api.callsTo('POST', '/api/preview-upgrade-cost')[0]?.body).toEqual({ planType: 'quarterly' });

    preview.resolve({ body: QUARTERLY_PREVIEW });
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Plan Change' });
    expect(dialog).toHaveTextContent('Change from Monthly to Quarterly.');
    expect(within(dialog).getByTestId('preview-credit')).toHaveTextContent('−$24.00');
    expect(within(dialog).getByTestId('preview-charge')).toHaveTextContent('$72.00');
    expect(within(dialog).getByTestId('preview-total')).toHaveTextContent('$48.00');
  });

  it('says what the credit is and what happens to unused value; an upgrade is confirmed with the primary button (#46)', async () => {
    const { dialog } = await openQuarterlyPreview();
    expect(within(dialog).getByTestId('preview-terms')).toHaveTextContent(
      "The credit of $24.00 is what you paid for the rest of your current Monthly period, which you will not use: it is taken off the new plan's charge.",
    );
    expect(within(dialog).getByTestId('preview-terms')).toHaveTextContent('The credit is used in full. $48.00 is charged today');
    expect(within(dialog).getByRole('button', { name: 'Confirm Change' })).toHaveClass('bg-primary');
  });

  it('a downgrade says the credit left over is kept for the next invoices, and is not the green primary button (#46)', async () => {
    mockApi({
      'GET /api/subscription': { body: subscriptionDto({ planType: 'yearly', amount: 20400 }) },
      'POST /api/preview-upgrade-cost': { body: { currentPlan: 'yearly', newPlan: 'monthly', prorationCredit: 15000, newPlanCharge: 3600, totalDue: 0, currency: 'usd' } },
    });
    const user = userEvent.setup();
    renderSettings(UPGRADE_URL);
    const card = await planCard();
    await user.click(await within(card).findByRole('button', { name: 'Change to Monthly' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Plan Change' });
    expect(within(dialog).getByTestId('preview-terms')).toHaveTextContent('the $114.00 left over stays on your account as credit and is taken off your next invoices. It is not paid out.');
    const confirm = within(dialog).getByRole('button', { name: 'Confirm Change' });
    expect(confirm).not.toHaveClass('bg-primary');
  });

  it('Cancel closes the preview without changing anything', async () => {
    const { api, user, dialog } = await openQuarterlyPreview();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(api.callsTo('POST', '/api/update-subscription')).toHaveLength(0);
  });

  it('confirming updates the plan, then runs the success sequence with its exact waits', async () => {
    const { api, dialog, router, card } = await openQuarterlyPreview({
      'POST /api/update-subscription': { body: { success: true, planType: 'quarterly' } },
    });
    const navigations: { path: string; at: number }[] = [];
    router.subscribe((state) => navigations.push({ path: state.location.pathname + state.location.search, at: Date.now() }));
    api.set('GET /api/subscription', { body: subscriptionDto({ planType: 'quarterly', amount: 7200 }) });

    vi.useFakeTimers();
    const start = Date.now();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm Change' }));
    await act(() => vi.advanceTimersByTimeAsync(0));

    expect(api.callsTo('POST', '/api/update-subscription').map((call) => call.body)).toEqual([{ planType: 'quarterly' }]);
    expect(screen.getByText('Plan Updated Successfully')).toBeInTheDocument();
    expect(screen.getByText('Your subscription has been updated to Quarterly.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(card).getByRole('status')).toHaveTextContent('Updating your plan...');

    const readsBefore = api.callsTo('GET', '/api/subscription').length;
    const accessBefore = api.callsTo('GET', '/api/access').length;
    await act(() => vi.advanceTimersByTimeAsync(1999));
    expect(api.callsTo('POST', '/api/check-subscription')).toHaveLength(0);
    expect(api.callsTo('GET', '/api/subscription')).toHaveLength(readsBefore);

    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(api.callsTo('POST', '/api/check-subscription').map((call) => call.at - start)).toEqual([2000]);
    expect(api.callsTo('GET', '/api/subscription').slice(readsBefore).map((call) => call.at - start)).toEqual([2000]);

    await act(() => vi.advanceTimersByTimeAsync(999));
    expect(api.callsTo('GET', '/api/access')).toHaveLength(accessBefore);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(api.callsTo('GET', '/api/access').slice(accessBefore).map((call) => call.at - start)).toEqual([3000]);

    await act(() => vi.advanceTimersByTimeAsync(499));
    expect(navigations).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(navigations).toEqual([{ path: UPGRADE_URL, at: start + 3500 }]);

    // 'Current Plan' has moved to the new plan.
    expect(within(option(card, 'Quarterly')).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
    expect(within(option(card, 'Monthly')).getByRole('button', { name: 'Change to Monthly' })).toBeEnabled();
    expect(within(card).queryByRole('status')).not.toBeInTheDocument();
  });

  it('a failing access refresh is tried three times, 1 s apart, then the page still returns to the plans', async () => {
    const { api, dialog, router } = await openQuarterlyPreview({
      'POST /api/update-subscription': { body: { success: true, planType: 'quarterly' } },
    });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const navigations: { path: string; at: number }[] = [];
    router.subscribe((state) => navigations.push({ path: state.location.pathname + state.location.search, at: Date.now() }));
    api.set('GET /api/access', errorReply(500, 'internal', 'Something went wrong on our side. Please try again.'));

    vi.useFakeTimers();
    const start = Date.now();
    const accessBefore = api.callsTo('GET', '/api/access').length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm Change' }));
    await act(() => vi.advanceTimersByTimeAsync(10_000));

    expect(api.callsTo('GET', '/api/access').slice(accessBefore).map((call) => call.at - start)).toEqual([3000, 4000, 5000]);
    expect(navigations).toEqual([{ path: UPGRADE_URL, at: start + 5500 }]);
  });

  it('a change waiting for 3-D Secure shows the message and the link to the payment page, not an error', async () => {
    const url = 'https://invoice.stripe.com/i/acct_1/in_123';
    const { user, dialog, card } = await openQuarterlyPreview({
      'POST /api/update-subscription': { status: 402, body: { error: { code: 'payment_action_required', message: 'Your bank asks you to confirm this payment.', details: { url } } } },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Change' }));

    const alert = await within(card).findByRole('alert');
    expect(alert).toHaveTextContent('Your bank asks you to confirm this payment. Open the secure payment page to approve it; your new plan starts as soon as it is confirmed.');
    expect(within(alert).getByRole('link', { name: 'Confirm the payment' })).toHaveAttribute('href', url);
    expect(screen.queryByText('Plan Upgrade Error')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it.each([
    [errorReply(402, 'payment_failed', 'Your card was declined.'), 'Payment failed. Your current subscription remains active. Please check your payment method and try again.'],
    [errorReply(500, 'internal', 'Something went wrong on our side. Please try again.'), 'There was a problem upgrading your plan. Your current subscription remains active.'],
    [errorReply(409, 'subscription_exists', 'You already have an active subscription of this type.'), 'You already have an active subscription of this type.'],
  ])("shows 'Plan Upgrade Error' when the update fails (%j)", async (reply, description) => {
    const { api, user, dialog, card } = await openQuarterlyPreview({ 'POST /api/update-subscription': reply });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm Change' }));

    expect(await screen.findByText('Plan Upgrade Error')).toBeInTheDocument();
    expect(screen.getByText(description)).toBeInTheDocument();
    expect(screen.queryByText('Plan Updated Successfully')).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(option(card, 'Monthly')).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
    expect(api.callsTo('POST', '/api/check-subscription')).toHaveLength(0);
  });

  it.each([
    [errorReply(404, 'no_customer', 'No Stripe customer found for this account.'), 'No subscription found. Please contact support.'],
    [errorReply(500, 'internal', 'Something went wrong on our side. Please try again.'), 'Could not preview upgrade costs. Please try again.'],
    [{ status: 200, body: { unexpected: true } }, 'Could not preview upgrade costs. Please try again.'],
  ])("shows 'Preview Error' when the preview fails (%j)", async (reply, description) => {
    mockApi({ 'POST /api/preview-upgrade-cost': reply });
    const user = userEvent.setup();
    renderSettings(UPGRADE_URL);
    const card = await planCard();
    await user.click(await within(card).findByRole('button', { name: 'Change to Yearly' }));

    expect(await screen.findByText('Preview Error')).toBeInTheDocument();
    expect(screen.getByText(description)).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(within(option(card, 'Yearly')).getByRole('button', { name: 'Change to Yearly' })).toBeEnabled();
  });

  it('starts a checkout for the plan when the server says there is no upgrade path', async () => {
    const api = mockApi({
      'POST /api/preview-upgrade-cost': { body: { redirectToCheckout: true } },
      'POST /api/create-checkout': { body: { url: '/sandbox/checkout/cs_test_123', sessionId: 'cs_test_123' } },
    });
    const user = userEvent.setup();
    const { assign } = renderSettings(UPGRADE_URL);
    const card = await planCard();
    await user.click(await within(card).findByRole('button', { name: 'Change to Yearly' }));

    await expect.poll(() => assign.mock.calls).toEqual([['/sandbox/checkout/cs_test_123']]);
    expect(api.callsTo('POST', '/api/create-checkout')[0]?.body).toMatchObject({
      planType: 'yearly',
      customerEmail: TEST_USER.email,
      originPage: '/',
      fbc: null,
      fbp: null,
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

describe('Change Plan card for other members', () => {
  it('tells a lifetime holder they have the best plan and offers nothing to buy', async () => {
    mockApi({ 'GET /api/subscription': { body: subscriptionDto({ planType: 'lifetime', expiresAt: null, canCancel: false, amount: 54999 }) } });
    renderSettings(UPGRADE_URL);
    const card = await planCard();
    expect(await within(card).findByText('Lifetime Plan Active – You already have the best plan!')).toBeInTheDocument();
    for (const button of within(card).getAllByRole('button')) expect(button).toBeDisabled();
    expect(within(card).queryByRole('button', { name: 'Get Lifetime Access' })).not.toBeInTheDocument();
  });

  it('shows EU plans to an EU member and previews the EU variant', async () => {
    const api = mockApi({
      'GET /api/subscription': { body: subscriptionDto({ planType: 'euMonthly', amount: 2999 }) },
      'POST /api/preview-upgrade-cost': { body: { ...QUARTERLY_PREVIEW, currentPlan: 'euMonthly', newPlan: 'euQuarterly' } },
    });
    const user = userEvent.setup();
    renderSettings(UPGRADE_URL);
    const card = await planCard();
    await within(card).findByRole('button', { name: 'Current Plan' });

    const monthly = option(card, 'Monthly');
    expect(within(monthly).getByText('$29.99')).toBeInTheDocument();
    expect(within(monthly).getByText('Full Price')).toBeInTheDocument();
    expect(within(monthly).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
    const lifetime = option(card, 'Lifetime');
    expect(within(lifetime).getByText('$1,699.99', { selector: 's' })).toBeInTheDocument();
    expect(within(lifetime).getByText('Save 70%')).toBeInTheDocument();
    // Lifetime is a one-time purchase, never a change of the recurring plan.
    expect(within(lifetime).getByRole('button', { name: 'Start now' })).toBeEnabled();
    expect(within(card).queryByRole('button', { name: 'Get Lifetime Access' })).not.toBeInTheDocument();

    await user.click(within(option(card, 'Quarterly')).getByRole('button', { name: 'Change to Quarterly' }));
    await screen.findByRole('dialog', { name: 'Confirm Plan Change' });
    expect(api.callsTo('POST', '/api/preview-upgrade-cost')[0]?.body).toEqual({ planType: 'euQuarterly' });
  });

  // #43: a member of a vendor's own list saw the default page's cards in dollars, though a change charged their list's price in pounds
  describe('a member who bought on a vendor list with its own currency', () => {
    const seed = seedCatalogue();
    const settings = {
      ...TEST_SITE_SETTINGS,
      catalogue: {
        ...seed,
        priceLists: [...seed.priceLists, { slug: 'vip', currency: 'gbp', header: 'Members of the club', countdown: false, entries: [{ plan: 'monthly', price: 3000 }, { plan: 'yearly', price: 24000 }] }],
        sales: [...seed.sales, { id: 'vip-spring', label: 'Spring', startsAt: null, endsAt: '2099-04-01T00:00:00.000Z', countdown: false, list: 'vip', prices: [{ plan: 'yearly', price: 18000 }] }],
      },
    };
    const vipMember = (overrides: Parameters<typeof subscriptionDto>[0] = {}) => subscriptionDto({ amount: 3000, currency: 'gbp', boughtOn: { list: 'vip', currency: 'gbp' }, ...overrides });

    it("sees only their list's plans, in pounds, with the sale running there, and previews a change to its plan", async () => {
      const api = mockApi({
        'GET /api/subscription': { body: vipMember() },
        'POST /api/preview-upgrade-cost': { body: { ...QUARTERLY_PREVIEW, newPlan: 'yearly', prorationCredit: 2000, newPlanCharge: 18000, totalDue: 16000, currency: 'gbp' } },
      });
      const user = userEvent.setup();
      renderSettings(UPGRADE_URL, settings);
      const card = await planCard();
      await within(card).findByRole('button', { name: 'Current Plan' });

      expect(within(card).getAllByRole('article').map((article) => within(article).getByRole('heading').textContent)).toEqual(['Monthly', 'Yearly']);
      const monthly = option(card, 'Monthly');
      expect(within(monthly).getByText('£30')).toBeInTheDocument();
      expect(within(monthly).getByText('Full Price')).toBeInTheDocument();
      expect(within(monthly).getByRole('button', { name: 'Current Plan' })).toBeDisabled();
      // the list's own sale: £180 a year (£15 a month), its £240 (£20 a month) struck through
      const yearly = option(card, 'Yearly');
      expect(within(yearly).getByText('£15')).toBeInTheDocument();
      expect(within(yearly).getByText('£20', { selector: 's' })).toBeInTheDocument();
      expect(within(yearly).getByText('Save 25%')).toBeInTheDocument();
      expect(within(card).queryByText(/\$/)).not.toBeInTheDocument();
      // the default page's one-time offer is not on their list
      expect(within(card).queryByRole('button', { name: 'Get Lifetime Access' })).not.toBeInTheDocument();

      await user.click(within(yearly).getByRole('button', { name: 'Change to Yearly' }));
      await screen.findByRole('dialog', { name: 'Confirm Plan Change' });
      expect(api.callsTo('POST', '/api/preview-upgrade-cost')[0]?.body).toEqual({ planType: 'yearly' });
    });

    it('buys again on their list’s page once their plan is ending', async () => {
      const api = mockApi({
        'GET /api/subscription': { body: vipMember({ isCanceled: true, canCancel: false }) },
        'POST /api/create-checkout': { body: { url: 'https://checkout.example.com/c/pay/cs_2', sessionId: 'cs_2' } },
      });
      const user = userEvent.setup();
      const { assign } = renderSettings(UPGRADE_URL, settings);
      const card = await planCard();
      await within(card).findByRole('button', { name: 'Current Plan' });
      await user.click(within(option(card, 'Yearly')).getByRole('button', { name: 'Start now' }));
      await expect.poll(() => assign.mock.calls).toEqual([['https://checkout.example.com/c/pay/cs_2']]);
      expect(api.callsTo('POST', '/api/create-checkout')[0]?.body).toMatchObject({ planType: 'yearly', originPage: '/vip' });
    });

    it('a member billed in another currency than the list now charges sees the default page', async () => {
      mockApi({ 'GET /api/subscription': { body: vipMember({ currency: 'usd', boughtOn: { list: 'vip', currency: 'usd' } }) } });
      renderSettings(UPGRADE_URL, settings);
      const card = await planCard();
      await within(card).findByRole('button', { name: 'Current Plan' });
      expect(within(card).getAllByRole('article').map((article) => within(article).getByRole('heading').textContent)).toEqual(['Monthly', 'Quarterly', 'Yearly']);
      expect(within(option(card, 'Monthly')).getByText('$36')).toBeInTheDocument();
    });
  });

  it('sends a member whose plan is ending to checkout with the plan’s own button text', async () => {
    const api = mockApi({
      'GET /api/subscription': { body: subscriptionDto({ isCanceled: true, canCancel: false }) },
      'POST /api/create-checkout': { body: { url: 'https://checkout.example.com/c/pay/cs_1', sessionId: 'cs_1' } },
    });
    const user = userEvent.setup();
    const { assign } = renderSettings(UPGRADE_URL);
    const card = await planCard();
    await within(card).findByRole('button', { name: 'Current Plan' });
    expect(within(card).queryByRole('button', { name: /Change to/ })).not.toBeInTheDocument();

    await user.click(within(option(card, 'Quarterly')).getByRole('button', { name: 'Start now' }));
    await expect.poll(() => assign.mock.calls).toEqual([['https://checkout.example.com/c/pay/cs_1']]);
    expect(api.callsTo('POST', '/api/create-checkout')[0]?.body).toMatchObject({ planType: 'quarterly', originPage: '/' });
    expect(api.callsTo('POST', '/api/preview-upgrade-cost')).toHaveLength(0);
  });

  it('offers Lifetime beside the default plans and reports a refused checkout', async () => {
    const api = mockApi({
      'POST /api/create-checkout': errorReply(409, 'subscription_exists', 'You already have an active subscription of this type.'),
    });
    const user = userEvent.setup();
    const { assign } = renderSettings(UPGRADE_URL);
    const card = await planCard();
    expect(await within(card).findByText('$549.99 one time')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Get Lifetime Access' }));

    expect(await screen.findByText('You already have an active subscription of this type.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/api/create-checkout')[0]?.body).toMatchObject({ planType: 'lifetime', originPage: '/' });
    expect(assign).not.toHaveBeenCalled();
    expect(within(card).getByRole('button', { name: 'Get Lifetime Access' })).toBeEnabled();
  });
});
