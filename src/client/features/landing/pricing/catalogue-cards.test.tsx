import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { campaignOf } from '@shared/campaign';
import { act } from 'react';
import { addPlan, saveSale, setActiveCatalogue, type Catalogue } from '@shared/catalogue';
import { savePriceList } from '@shared/price-lists';
import { OfferBar } from '../components/offer-bar';
import { seedCatalogue } from '@shared/plans';
import { anonymous, fakeServer, renderWithProviders, SETTINGS } from '../test/render-landing';
import { PricingSection } from './pricing-section';

// The cards are the shop's catalogue, as the server sends it in the site settings (decision 045).
const AFTER_SALE = new Date('2026-03-01T00:00:00Z');
const seed = seedCatalogue({ prices: SETTINGS.prices as never, regularPrices: SETTINGS.regularPrices as never, saleEndsAt: '2025-11-26T23:59:59.000Z', saleLabel: 'Black Friday' });

function withWeekly(): Catalogue {
  const edit = addPlan(seed, { slug: 'weekly', name: 'Weekly', price: 1500, period: { unit: 'week', count: 1 } });
  if ('problem' in edit) throw new Error(edit.problem);
  return edit.catalogue;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  setActiveCatalogue(null);
});

describe('pricing cards from the catalogue', () => {
  it('a weekly plan added by the operator is a fourth card at $15 a week that buys the weekly plan', async () => {
    const catalogue = withWeekly();
    const server = fakeServer({ ...anonymous(), 'POST /api/create-checkout': () => ({ body: { url: '/sandbox/checkout/cs_1', sessionId: 'cs_1' } }) });
    const redirect = vi.fn();
    renderWithProviders(<PricingSection originPage="/" redirect={redirect} />, { settings: { ...SETTINGS, ...campaignOf(catalogue, AFTER_SALE) } });
    expect(screen.getAllByRole('article').map((article) => article.getAttribute('aria-labelledby'))).toEqual(['plan-monthly', 'plan-quarterly', 'plan-yearly', 'plan-weekly']);
    const weekly = within(screen.getByRole('article', { name: 'Weekly' }));
    expect(weekly.getByText('$15')).toBeInTheDocument();
    expect(weekly.getByText('/week')).toBeInTheDocument();
    // a per-month card billed per several months says what each period charges
    expect(within(screen.getByRole('article', { name: 'Quarterly' })).getByText('$141 billed every 3 months')).toBeInTheDocument();

    await waitFor(() => expect(weekly.getByRole('button')).toBeEnabled());
    await userEvent.click(weekly.getByRole('button'));
    await waitFor(() => expect(redirect).toHaveBeenCalledWith('/sandbox/checkout/cs_1'));
    expect(server.callsTo('POST /api/create-checkout')[0]?.body).toMatchObject({ planType: 'weekly', originPage: '/' });
  });
});

describe("a sale on a vendor's own price list", () => {
  function partnersOnSale(): Catalogue {
    const listed = savePriceList(seed, { slug: 'partners', currency: 'eur', header: 'Partner prices', entries: [{ plan: 'monthly', price: 2900 }] }, true);
    if ('problem' in listed) throw new Error(listed.problem);
    const sale = saveSale(listed.catalogue, { id: 'spring', label: 'Spring', startsAt: '2026-03-01T00:00:00.000Z', endsAt: '2026-03-01T01:00:00.000Z', countdown: true, list: 'partners', prices: [{ plan: 'monthly', price: 1900 }] });
    if ('problem' in sale) throw new Error(sale.problem);
    return sale.catalogue;
  }

  it('shows the sale price with the list price struck through and its countdown while it runs, the list price after its end', async () => {
    vi.useFakeTimers({ now: new Date('2026-03-01T00:30:00Z'), shouldAdvanceTime: true });
    const catalogue = partnersOnSale();
    fakeServer(anonymous());
    const settings = { ...SETTINGS, ...campaignOf(catalogue, new Date('2026-03-01T00:30:00Z')) };
    renderWithProviders(
      <>
        <OfferBar isEu={false} header="Partner prices" ownList page="/partners" />
        <PricingSection originPage="/partners" />
      </>,
      { settings },
    );
    const monthly = within(screen.getByRole('article', { name: 'Monthly' }));
    expect(monthly.getByText('€19')).toBeInTheDocument();
    expect(monthly.getByLabelText('was €29')).toBeInTheDocument();
    expect(screen.getByText(/Spring Sale/)).toBeInTheDocument();
    expect(screen.getByTestId('list-header')).toHaveTextContent('Partner prices');

    await act(() => vi.advanceTimersByTimeAsync(31 * 60 * 1000));
    await waitFor(() => expect(monthly.getByText('€29')).toBeInTheDocument());
    expect(monthly.queryByLabelText('was €29')).toBeNull();
    expect(screen.queryByText(/Spring Sale/)).toBeNull();
    expect(screen.getByTestId('list-header')).toHaveTextContent('Partner prices');
  });
});
