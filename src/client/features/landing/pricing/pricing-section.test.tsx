import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionViewDto } from '@shared/api-contract';
import type { PlanType } from '@shared/plans';
import { anonymous, deferred, fakeServer, renderWithProviders, SETTINGS, signedIn } from '../test/render-landing';
import { PricingSection } from './pricing-section';

const FEATURES = ['Premium Indicators', 'Community Access', 'Strategies & Update Guides', 'Active Product Updates', 'Trading Setups & Ideas', '24/7 Support', 'VIP Discord'];

const card = (name: string) => screen.getByRole('article', { name });
const cardButton = (name: string) => within(card(name)).getByRole('button');

function subscription(overrides: Partial<SubscriptionViewDto>): SubscriptionViewDto {
  return {
    planType: 'quarterly',
    isActive: true,
    isCanceled: false,
    status: 'active',
    expiresAt: '2099-01-01T00:00:00.000Z',
    purchaseDate: '2026-01-01T00:00:00.000Z',
    amount: 7200,
    currency: 'usd',
    tradingviewUsername: 'trader_joe',
    canCancel: true,
    latestPlanType: 'quarterly',
    boughtOn: null,
    ...overrides,
  };
}

const member = (view: SubscriptionViewDto) => ({
  ...signedIn(),
  'GET /api/access': () => ({ body: { hasAccess: view.isActive } }),
  'GET /api/subscription': () => ({ body: view }),
});

/**
 * On the page the cards show only once the session is known (the landing gate waits for it); on
 * their own they first render for an anonymous visitor. A member's state is known once their
 * subscription has been asked for and has answered.
 */
async function memberStateLoaded(server: ReturnType<typeof fakeServer>, plan: string) {
  await waitFor(() => expect(server.callsTo('GET /api/subscription')).toHaveLength(1));
  await waitFor(() => expect(cardButton(plan)).toBeEnabled());
}

afterEach(() => vi.restoreAllMocks());

describe('PricingSection on /', () => {
  it('shows the three Black Friday cards with prices, savings and the seven features', async () => {
    fakeServer(anonymous());
    renderWithProviders(<PricingSection originPage="/" redirect={vi.fn()} />);
    expect(screen.getByRole('region', { name: 'Choose Your Plan' })).toHaveAttribute('id', 'prices');
    const expected = [
      ['Monthly', '$36', 'Save 23%'],
      ['Quarterly', '$24', 'Save 49%'],
      ['Yearly', '$17', 'Save 64%'],
    ] as const;
    for (const [name, price, savings] of expected) {
      const plan = within(card(name));
      expect(plan.getByText(price)).toBeInTheDocument();
      expect(plan.getByText('/month')).toBeInTheDocument();
      expect(plan.getByText('$47')).toHaveClass('line-through');
      expect(plan.getByText(savings)).toBeInTheDocument();
      expect(plan.getByText('Black Friday')).toBeInTheDocument();
      expect(plan.getAllByRole('listitem').map((item) => item.textContent)).toEqual(FEATURES);
    }
    await waitFor(() => expect(cardButton('Quarterly')).toBeEnabled());
    expect(cardButton('Quarterly')).toHaveTextContent('Start now');
    expect(within(card('Quarterly')).getByText('Most Popular')).toBeInTheDocument();
  });

  it('starts a checkout for an anonymous visitor: Loading... while it runs, then goes to the checkout url', async () => {
    const answer = deferred<{ body: unknown }>();
    const server = fakeServer({ ...anonymous(), 'POST /api/create-checkout': () => answer.promise });
    const redirect = vi.fn();
    renderWithProviders(<PricingSection originPage="/" redirect={redirect} />);
    await waitFor(() => expect(cardButton('Yearly')).toBeEnabled());

    await userEvent.click(cardButton('Yearly'));
    expect(cardButton('Yearly')).toHaveTextContent('Loading...');
    expect(cardButton('Yearly')).toBeDisabled();
    expect(cardButton('Monthly')).toBeDisabled();

    answer.resolve({ body: { url: '/sandbox/checkout/cs_test_1', sessionId: 'cs_test_1' } });
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('/sandbox/checkout/cs_test_1'));
    expect(server.callsTo('POST /api/create-checkout')).toEqual([
      {
        key: 'POST /api/create-checkout',
        body: { planType: 'yearly', customerEmail: null, fbc: null, fbp: null, userAgent: navigator.userAgent, originPage: '/' },
      },
    ]);
  });

  it('sends the signed-in user’s e-mail with the checkout', async () => {
    const server = fakeServer({
      ...signedIn('lapsed@example.com'),
      'GET /api/access': () => ({ body: { hasAccess: false } }),
      'GET /api/subscription': () => ({ body: subscription({ isActive: false, status: 'canceled', isCanceled: true, planType: 'monthly' }) }),
      'POST /api/create-checkout': () => ({ body: { url: '/sandbox/checkout/cs_2', sessionId: 'cs_2' } }),
    });
    const redirect = vi.fn();
    renderWithProviders(<PricingSection originPage="/" redirect={redirect} />);
    // A lapsed member buys again: no 'Current Plan', plain 'Start now'.
    await memberStateLoaded(server, 'Monthly');
    expect(cardButton('Monthly')).toHaveTextContent('Start now');
    await userEvent.click(cardButton('Monthly'));
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('/sandbox/checkout/cs_2'));
    expect(server.callsTo('POST /api/create-checkout')[0]?.body).toMatchObject({ planType: 'monthly', customerEmail: 'lapsed@example.com' });
  });

  it('shows a checkout failure with the spec’s title and text, and lets the buyer try again', async () => {
    fakeServer({
      ...anonymous(),
      'POST /api/create-checkout': () => ({ status: 409, body: { error: { code: 'subscription_exists', message: 'You already have an active subscription of this type.' } } }),
    });
    const redirect = vi.fn();
    renderWithProviders(<PricingSection originPage="/" redirect={redirect} />);
    await waitFor(() => expect(cardButton('Monthly')).toBeEnabled());
    await userEvent.click(cardButton('Monthly'));
    expect(await screen.findByText('You already have an active subscription of this type.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(cardButton('Monthly')).toHaveTextContent('Start now');
    expect(cardButton('Monthly')).toBeEnabled();
    expect(redirect).not.toHaveBeenCalled();
  });

  it('falls back to the generic checkout error when the server cannot be reached', async () => {
    globalThis.fetch = vi.fn(async (input: RequestInfo | URL) => {
      if (String(input).includes('get-session')) return new Response('null', { status: 200 });
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    renderWithProviders(<PricingSection originPage="/" redirect={vi.fn()} />);
    await waitFor(() => expect(cardButton('Monthly')).toBeEnabled());
    await userEvent.click(cardButton('Monthly'));
    expect(await screen.findByText('There was a problem processing your request. Please try again.')).toBeInTheDocument();
  });
});

describe('PricingSection on /eu', () => {
  it('shows the EU cards and buys the EU variant with originPage /eu', async () => {
    const server = fakeServer({ ...anonymous(), 'POST /api/create-checkout': () => ({ body: { url: '/sandbox/checkout/cs_eu', sessionId: 'cs_eu' } }) });
    const redirect = vi.fn();
    renderWithProviders(<PricingSection originPage="/eu" redirect={redirect} />, { path: '/eu' });
    expect(within(card('Monthly')).getByText('$29.99')).toBeInTheDocument();
    expect(within(card('Monthly')).getByText('/Month')).toBeInTheDocument();
    expect(within(card('Quarterly')).getByText('$59.99')).toBeInTheDocument();
    expect(within(card('Quarterly')).getByText('per 3 months')).toBeInTheDocument();
    expect(within(card('Quarterly')).getByText('$89.97')).toBeInTheDocument();
    expect(within(card('Quarterly')).getByText('Save 33%')).toBeInTheDocument();
    expect(within(card('Lifetime')).getByText('$549.99')).toBeInTheDocument();
    expect(within(card('Lifetime')).getByText('one time')).toBeInTheDocument();
    expect(within(card('Lifetime')).getByText('$1,699.99')).toBeInTheDocument();
    expect(within(card('Lifetime')).getByText('Save 70%')).toBeInTheDocument();
    expect(screen.queryByText('Black Friday')).not.toBeInTheDocument();
    for (const name of ['Monthly', 'Quarterly', 'Lifetime']) expect(within(card(name)).getAllByRole('listitem')).toHaveLength(7);

    await waitFor(() => expect(cardButton('Quarterly')).toBeEnabled());
    await userEvent.click(cardButton('Quarterly'));
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('/sandbox/checkout/cs_eu'));
    expect(server.callsTo('POST /api/create-checkout')[0]?.body).toMatchObject({ planType: 'euQuarterly', originPage: '/eu' });
  });
});

describe('PricingSection for members', () => {
  it('marks an active member’s plan as Current Plan and offers Preview Change on the others', async () => {
    fakeServer(member(subscription({ planType: 'quarterly' })));
    renderWithProviders(<PricingSection originPage="/" redirect={vi.fn()} />);
    await waitFor(() => expect(cardButton('Quarterly')).toHaveTextContent('Current Plan'));
    expect(cardButton('Quarterly')).toBeDisabled();
    expect(within(card('Quarterly')).getByTestId('current-plan-badge')).toHaveTextContent('Current Plan');
    expect(cardButton('Monthly')).toHaveTextContent('Preview Change');
    expect(cardButton('Yearly')).toHaveTextContent('Preview Change');
    expect(cardButton('Yearly')).toBeEnabled();
  });

  it('previews a plan change, shows credit, charge and total, and applies it on confirm', async () => {
    let current: SubscriptionViewDto = subscription({ planType: 'quarterly' });
    const previewAnswer = deferred<{ body: unknown }>();
    const server = fakeServer({
      ...member(current),
      'GET /api/subscription': () => ({ body: current }),
      'POST /api/preview-upgrade-cost': () => previewAnswer.promise,
      'POST /api/update-subscription': () => {
        current = subscription({ planType: 'yearly' });
        return { body: { success: true, planType: 'yearly' } };
      },
    });
    renderWithProviders(<PricingSection originPage="/" redirect={vi.fn()} />);
    await waitFor(() => expect(cardButton('Yearly')).toHaveTextContent('Preview Change'));

    await userEvent.click(cardButton('Yearly'));
    expect(cardButton('Yearly')).toHaveTextContent('Loading...');
    previewAnswer.resolve({ body: { currentPlan: 'quarterly', newPlan: 'yearly', prorationCredit: 4800, newPlanCharge: 20400, totalDue: 15600, currency: 'usd' } });

    const dialog = await screen.findByRole('dialog', { name: 'Confirm Plan Change' });
    expect(within(dialog).getByTestId('preview-credit')).toHaveTextContent('$48.00');
    expect(within(dialog).getByTestId('preview-charge')).toHaveTextContent('$204.00');
    expect(within(dialog).getByTestId('preview-total')).toHaveTextContent('$156.00');
    expect(server.callsTo('POST /api/preview-upgrade-cost')[0]?.body).toEqual({ planType: 'yearly' });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm Change' }));
    expect(await screen.findByText('Plan Updated Successfully')).toBeInTheDocument();
    expect(screen.getByText('Your subscription has been updated to Yearly.')).toBeInTheDocument();
    expect(server.callsTo('POST /api/update-subscription')[0]?.body).toEqual({ planType: 'yearly' });
    await waitFor(() => expect(cardButton('Yearly')).toHaveTextContent('Current Plan'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows a failed plan change as Plan Update Error and keeps the dialog for another try', async () => {
    fakeServer({
      ...member(subscription({ planType: 'monthly' })),
      'POST /api/preview-upgrade-cost': () => ({ body: { currentPlan: 'monthly', newPlan: 'quarterly', prorationCredit: 1200, newPlanCharge: 7200, totalDue: 6000, currency: 'usd' } }),
      'POST /api/update-subscription': () => ({ status: 402, body: { error: { code: 'payment_failed', message: 'Your card was declined.' } } }),
    });
    renderWithProviders(<PricingSection originPage="/" redirect={vi.fn()} />);
    await waitFor(() => expect(cardButton('Quarterly')).toHaveTextContent('Preview Change'));
    await userEvent.click(cardButton('Quarterly'));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm Plan Change' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Confirm Change' }));
    expect(await screen.findByText('Plan Update Error')).toBeInTheDocument();
    expect(screen.getByText('Payment failed. Your current subscription remains active. Please check your payment method and try again.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Confirm Change' })).toBeEnabled();
  });

  it('shows a failed preview as Preview Error', async () => {
    fakeServer({
      ...member(subscription({ planType: 'monthly' })),
      'POST /api/preview-upgrade-cost': () => ({ status: 404, body: { error: { code: 'no_customer', message: 'No Stripe customer found for this account.' } } }),
    });
    renderWithProviders(<PricingSection originPage="/" redirect={vi.fn()} />);
    await waitFor(() => expect(cardButton('Yearly')).toHaveTextContent('Preview Change'));
    await userEvent.click(cardButton('Yearly'));
    expect(await screen.findByText('Preview Error')).toBeInTheDocument();
    expect(screen.getByText('No subscription found. Please contact support.')).toBeInTheDocument();
    expect(cardButton('Yearly')).toHaveTextContent('Preview Change');
  });

  it('buys through checkout when the preview says there is no upgrade path', async () => {
    const server = fakeServer({
      ...member(subscription({ planType: 'monthly' })),
      'POST /api/preview-upgrade-cost': () => ({ body: { redirectToCheckout: true } }),
      'POST /api/create-checkout': () => ({ body: { url: '/sandbox/checkout/cs_up', sessionId: 'cs_up' } }),
    });
    const redirect = vi.fn();
    renderWithProviders(<PricingSection originPage="/" redirect={redirect} />);
    await waitFor(() => expect(cardButton('Yearly')).toHaveTextContent('Preview Change'));
    await userEvent.click(cardButton('Yearly'));
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('/sandbox/checkout/cs_up'));
    expect(server.callsTo('POST /api/create-checkout')[0]?.body).toMatchObject({ planType: 'yearly', customerEmail: 'member@example.com' });
  });

  it('disables every card for a lifetime holder and shows the lifetime banner', async () => {
    fakeServer(member(subscription({ planType: 'lifetime', expiresAt: null, canCancel: false })));
    renderWithProviders(<PricingSection originPage="/eu" redirect={vi.fn()} />, { path: '/eu' });
    expect(await screen.findByText('You have a Lifetime subscription - enjoy unlimited access!')).toBeInTheDocument();
    for (const name of ['Monthly', 'Quarterly', 'Lifetime']) {
      expect(cardButton(name)).toHaveTextContent('Lifetime Active');
      expect(cardButton(name)).toBeDisabled();
    }
    expect(within(card('Lifetime')).getByTestId('current-plan-badge')).toBeInTheDocument();
  });

  it('lets a member whose plan is cancelled but still running buy again instead of previewing', async () => {
    const server = fakeServer(member(subscription({ planType: 'monthly', isCanceled: true, canCancel: false })));
    renderWithProviders(<PricingSection originPage="/" redirect={vi.fn()} />);
    await memberStateLoaded(server, 'Monthly');
    expect(cardButton('Monthly')).toHaveTextContent('Start now');
    expect(cardButton('Yearly')).toHaveTextContent('Start now');
  });
});

describe('PricingSection with free trials on (TRIAL_DAYS=7)', () => {
  const PLANS: PlanType[] = ['monthly', 'quarterly', 'yearly'];
  const TRIALS = { ...SETTINGS, trial: { days: 7, plans: PLANS } };

  it('says the trial and the charge after it on every card that has one', async () => {
    fakeServer(anonymous());
    renderWithProviders(<PricingSection originPage="/" redirect={vi.fn()} />, { settings: TRIALS });
    expect(await within(card('Monthly')).findByText('7-day free trial, then $36/month')).toBeInTheDocument();
    expect(within(card('Quarterly')).getByText('7-day free trial, then $72 every 3 months')).toBeInTheDocument();
    expect(within(card('Yearly')).getByText('7-day free trial, then $204/year')).toBeInTheDocument();
  });

  it('the EU cards have none unless listed', async () => {
    fakeServer(anonymous());
    renderWithProviders(<PricingSection originPage="/eu" redirect={vi.fn()} />, { path: '/eu', settings: TRIALS });
    await screen.findByRole('article', { name: 'Monthly' });
    expect(screen.queryByText(/free trial/)).not.toBeInTheDocument();
  });

  it('is silent with trials off', async () => {
    fakeServer(anonymous());
    renderWithProviders(<PricingSection originPage="/" redirect={vi.fn()} />);
    await screen.findByRole('article', { name: 'Monthly' });
    expect(screen.queryByText(/free trial/)).not.toBeInTheDocument();
  });
});
