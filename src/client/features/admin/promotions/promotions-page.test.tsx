import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { PromotionItem } from '@shared/promotions-contract';
import { errorReply, renderWithAuth, resetAfterTest, stubApi, type ApiRoute } from '@client/test/render';
import { OPERATOR_CONSOLE_ROUTES } from '@client/test/fixtures';
import { AdminLayout } from '../admin-layout';


const BF20: PromotionItem = {
  id: 'aaaaaaaa-0000-4000-8000-000000000001',
  code: 'BF20',
  percentOff: 20,
  amountOff: null,
  currency: null,
  duration: 'once',
  durationInMonths: null,
  plans: null,
  firstTimeOnly: false,
  churnedOnly: false,
  expiresAt: null,
  maxRedemptions: 100,
  status: 'active',
  redemptions: 3,
  revenue: [{ currency: 'usd', amount: 8640 }],
  discounted: [{ currency: 'usd', amount: 2160 }],
  provider: { state: 'mirrored', kind: 'stripe', promotionCodeId: 'promo_1', error: null },
  createdBy: 'operator@example.com',
  createdAt: '2026-01-05T08:00:00.000Z',
};
const PENDING: PromotionItem = { ...BF20, id: 'aaaaaaaa-0000-4000-8000-000000000002', code: 'TEN', percentOff: null, amountOff: 1000, currency: 'usd', duration: 'forever', plans: ['monthly'], firstTimeOnly: true, maxRedemptions: null, redemptions: 0, revenue: [], discounted: [], provider: { state: 'failed', kind: null, promotionCodeId: null, error: 'The payment provider is temporarily unavailable. Please try again.' } };

function renderPage(routes: Record<string, ApiRoute> = {}) {
  const api = stubApi({
    ...OPERATOR_CONSOLE_ROUTES,
    'GET /api/admin/promotion-codes': { body: { promotions: [BF20, PENDING] } },
    ...routes,
  });
  renderWithAuth([{ path: '/admin/*', element: <AdminLayout /> }], { path: '/admin/promotion-codes' });
  return api;
}

const cellsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));

afterEach(resetAfterTest);

describe('PromotionsPage', () => {
  it('lists the codes with redemptions, revenue, status and whether they are at the payment provider', async () => {
    const api = renderPage({ 'POST /api/admin/promotion-codes/TEN/sync': { body: { ...PENDING, provider: { ...BF20.provider, promotionCodeId: 'promo_2' } } } });
    expect(await screen.findByRole('heading', { name: 'Promotion codes', level: 1 })).toBeVisible();
    expect(within(screen.getByRole('navigation', { name: 'Operator console' })).getByRole('link', { name: 'Promotion codes' })).toHaveAttribute('aria-current', 'page');
    const table = await screen.findByRole('table', { name: 'Promotion codes' });
    expect(cellsOf(table)).toEqual([
      ['BF20', '20% off on the first payment', 'All', '3 / 100', '$86.40', '—', 'active', 'stripe', 'Deactivate'],
      ['TEN', '$10.00 off for as long as you subscribe', 'Monthly · first-time', '0', '$0.00', '—', 'active', 'Not yet at the providerRetry', 'Deactivate'],
    ]);
    await userEvent.click(within(table).getByRole('button', { name: 'Retry' }));
    expect(api.calls.some((call) => call.method === 'POST' && call.path === '/api/admin/promotion-codes/TEN/sync')).toBe(true);
  });

  it('creates a code: an amount typed in dollars is sent in cents; the server’s refusal is shown as it is', async () => {
    let created = 0;
    const api = renderPage({
      'POST /api/admin/promotion-codes': (call) => {
        created += 1;
        return created === 1 ? errorReply(400, 'validation_failed', 'Unknown plan: weekly.') : { status: 201, body: { ...PENDING, provider: BF20.provider, code: (call.body as { code: string }).code } };
      },
    });
    await screen.findByRole('table', { name: 'Promotion codes' });
    await userEvent.type(screen.getByLabelText('Code'), 'TEN');
    await userEvent.selectOptions(screen.getByLabelText('Discount'), 'amount');
    await userEvent.type(screen.getByLabelText('Amount'), '9.99');
    await userEvent.selectOptions(screen.getByLabelText('Duration on subscriptions'), 'repeating');
    await userEvent.type(screen.getByLabelText('Months'), '3');
    await userEvent.click(screen.getByLabelText('Monthly'));
    await userEvent.click(screen.getByRole('button', { name: 'Create code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Unknown plan: weekly.');
    const sent = api.calls.find((call) => call.method === 'POST' && call.path === '/api/admin/promotion-codes')!.body;
    expect(sent).toEqual({ code: 'TEN', percentOff: null, amountOff: 999, currency: 'usd', duration: 'repeating', durationInMonths: 3, plans: ['monthly'], firstTimeOnly: false, churnedOnly: false, maxRedemptions: null, expires: null });

    await userEvent.click(screen.getByRole('button', { name: 'Create code' }));
    expect(await screen.findByRole('status')).toHaveTextContent('TEN created and mirrored at stripe.');
  });
});
