import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROMOTION_STORAGE_KEY, resetPromotionCode } from '@client/lib/promotion-code';
import { PromotionBar } from '../components/promotion-banner';
import { anonymous, fakeServer, renderWithProviders } from '../test/render-landing';
import { PricingSection } from './pricing-section';

const BF20 = { code: 'BF20', percentOff: 20, amountOff: null, currency: null, duration: 'once', durationInMonths: null, plans: null, firstTimeOnly: false, churnedOnly: false, expiresAt: null };
const card = (name: string) => screen.getByRole('article', { name });

function visit(path: string) {
  window.history.replaceState({}, '', path);
}

function page(originPage: '/' | '/eu' = '/', redirect = vi.fn()) {
  renderWithProviders(
    <>
      <PricingSection originPage={originPage} redirect={redirect} />
      <PromotionBar />
    </>,
  );
  return redirect;
}

beforeEach(() => {
  resetPromotionCode();
  window.sessionStorage.clear();
});
afterEach(() => {
  visit('/');
  vi.restoreAllMocks();
});

describe('a /?code= visit', () => {
  it('shows the banner and the discounted prices with the price before the code struck through, and checks out with the code', async () => {
    visit('/?code=bf20');
    const server = fakeServer({
      ...anonymous(),
      'GET /api/promotion-codes/bf20': () => ({ body: BF20 }),
      'POST /api/create-checkout': () => ({ body: { url: '/sandbox/checkout/cs_1', sessionId: 'cs_1' } }),
    });
    const redirect = page();
    expect(await screen.findByTestId('promotion-banner')).toHaveTextContent('20% off with BF20 (on the first payment): the prices below include it.');
    expect(screen.getByTestId('promotion-bar')).toHaveTextContent('20% off with BF20 (on the first payment) · See prices');
    const monthly = within(card('Monthly'));
    expect(monthly.getByText('$28.80')).toBeInTheDocument();
    expect(monthly.getByLabelText('was $36')).toHaveClass('line-through');
    expect(monthly.getByText('20% off with BF20')).toBeInTheDocument();
    expect(within(card('Quarterly')).getByText('$19.20')).toBeInTheDocument();
    expect(window.sessionStorage.getItem(PROMOTION_STORAGE_KEY)).toBe('bf20');

    await waitFor(() => expect(within(card('Monthly')).getByRole('button')).toBeEnabled());
    await userEvent.click(within(card('Monthly')).getByRole('button'));
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('/sandbox/checkout/cs_1'));
    expect(server.callsTo('POST /api/create-checkout')[0]!.body).toMatchObject({ planType: 'monthly', promotionCode: 'BF20' });
  });

  it('remembers the code for the visit: a later page without ?code= still has it', async () => {
    window.sessionStorage.setItem(PROMOTION_STORAGE_KEY, 'BF20');
    visit('/eu');
    fakeServer({ ...anonymous(), 'GET /api/promotion-codes/BF20': () => ({ body: { ...BF20, plans: ['euMonthly'] } }) });
    page('/eu');
    expect(await within(card('Monthly')).findByText('$23.99')).toBeInTheDocument();
    // the code covers EU Monthly only: the other cards keep their prices
    expect(within(card('Quarterly')).getByText('$59.99')).toBeInTheDocument();
  });

  it('an expired or unknown code: a clear message, the normal prices, and a checkout without a code', async () => {
    visit('/?code=OLD');
    const server = fakeServer({
      ...anonymous(),
      'GET /api/promotion-codes/OLD': () => ({ status: 404, body: { error: { code: 'promotion_code_invalid', message: 'The code OLD has expired.' } } }),
      'POST /api/create-checkout': () => ({ body: { url: '/sandbox/checkout/cs_2', sessionId: 'cs_2' } }),
    });
    page();
    expect(await screen.findByTestId('promotion-error')).toHaveTextContent('The code OLD has expired. The prices below are the regular prices.');
    expect(within(card('Monthly')).getByText('$36')).toBeInTheDocument();
    expect(screen.queryByText('$28.80')).not.toBeInTheDocument();
    expect(window.sessionStorage.getItem(PROMOTION_STORAGE_KEY)).toBeNull();
    await waitFor(() => expect(within(card('Monthly')).getByRole('button')).toBeEnabled());
    await userEvent.click(within(card('Monthly')).getByRole('button'));
    await waitFor(() => expect(server.callsTo('POST /api/create-checkout')).toHaveLength(1));
    expect(server.callsTo('POST /api/create-checkout')[0]!.body).not.toHaveProperty('promotionCode');
  });

  it('leaves the server-rendered HTML as it is without a code: the code is read after hydration only', () => {
    visit('/?code=bf20');
    const html = renderToString(<PromotionBar />);
    expect(html).toBe('');
  });
});
