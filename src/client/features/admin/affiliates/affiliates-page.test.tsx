import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AffiliateAdminItem, AffiliateList, TermsResponse } from '@shared/affiliates-contract';
import { errorReply, renderWithAuth, resetAfterTest, stubApi, type ApiRoute } from '@client/test/render';
import { OPERATOR_CONSOLE_ROUTES } from '@client/test/fixtures';
import { AdminLayout } from '../admin-layout';

const NONE = { pending: 0, approved: 0, paid: 0, reversed: 0 };
const LIST: AffiliateList = { affiliates: [], page: 1, pageSize: 50, totals: { affiliates: 0, flagged: 0, suspended: 0, currency: 'usd', commissions: NONE, dueToApprove: 0 }, topByRevenue: [] };
const TERMS: TermsResponse = {
  mode: 'open',
  kind: 'percent',
  value: 30,
  plans: { lifetime: { kind: 'fixed', value: 5000 } },
  duration: 'lifetime',
  durationMonths: null,
  cookieDays: 60,
  holdDays: 30,
  minimumPayout: 5000,
  currency: 'usd',
  updatedAt: null,
  updatedBy: null,
};

function renderPage(routes: Record<string, ApiRoute> = {}) {
  const api = stubApi({
    ...OPERATOR_CONSOLE_ROUTES,
    'GET /api/admin/affiliates': { body: LIST },
    'GET /api/admin/affiliates/terms': { body: TERMS },
    ...routes,
  });
  renderWithAuth([{ path: '/admin/*', element: <AdminLayout /> }], { path: '/admin/affiliates' });
  return api;
}

afterEach(resetAfterTest);

describe('AffiliatesPage terms', () => {
  it('sets a commission per plan: the saved ones are shown, a new one is sent, an amount in dollars goes in cents; the refusal is shown as it is', async () => {
    let saves = 0;
    const api = renderPage({
      'PUT /api/admin/affiliates/terms': () => (++saves === 1 ? errorReply(400, 'validation_failed', 'A commission rate is between 0 % and 100 %.') : { body: TERMS }),
    });
    const lifetime = await screen.findByLabelText('Lifetime commission');
    expect(lifetime).toHaveValue('fixed');
    expect(screen.getByLabelText('Lifetime amount')).toHaveValue('50.00');
    expect(screen.getByLabelText('Monthly (monthly) commission')).toHaveValue('program');
    expect(screen.queryByLabelText('Monthly (monthly) rate (%)')).toBeNull();

    await userEvent.selectOptions(screen.getByLabelText('Yearly commission'), 'percent');
    await userEvent.type(screen.getByLabelText('Yearly rate (%)'), '150');
    await userEvent.clear(screen.getByLabelText('Lifetime amount'));
    await userEvent.type(screen.getByLabelText('Lifetime amount'), '12.50');
    await userEvent.click(screen.getByRole('button', { name: 'Save terms' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A commission rate is between 0 % and 100 %.');
    const sent = api.callsTo('PUT', '/api/admin/affiliates/terms')[0]!.body as { plans: unknown };
    expect(sent.plans).toEqual({ yearly: { kind: 'percent', value: 150 }, lifetime: { kind: 'fixed', value: 1250 } });

    // back to the program's commission: the plan is left out
    await userEvent.selectOptions(screen.getByLabelText('Yearly commission'), 'program');
    await userEvent.click(screen.getByRole('button', { name: 'Save terms' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Terms saved.');
    expect((api.callsTo('PUT', '/api/admin/affiliates/terms')[1]!.body as { plans: unknown }).plans).toEqual({ lifetime: { kind: 'fixed', value: 1250 } });
  });
});

/** Affiliate number `index` as the list shows it. */
const item = (index: number): AffiliateAdminItem => ({
  id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  code: `SELLER${index}`,
  email: `seller${index}@example.com`,
  userId: '22222222-2222-4222-8222-222222222222',
  status: 'active',
  suspendedReason: null,
  flagged: false,
  clicks: 0,
  buyers: 0,
  reversedBuyers: 0,
  sales: 0,
  revenue: [],
  currency: 'usd',
  commissions: NONE,
  balance: 0,
  payoutEmail: null,
  promotionCode: null,
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('AffiliatesPage list (#45)', () => {
  /** 120 affiliates, answered 50 a page as the server does. */
  const paged: ApiRoute = (call) => {
    const query = new URLSearchParams(call.search);
    const page = Number(query.get('page'));
    const all = Array.from({ length: 120 }, (_, index) => item(index + 1)).filter((one) => one.code.includes((query.get('q') ?? '').toUpperCase()));
    return { body: { ...LIST, page, affiliates: all.slice((page - 1) * 50, page * 50), totals: { ...LIST.totals, affiliates: all.length } } };
  };

  it('shows a page at a time and goes to the next and back; a new search starts at its first page', async () => {
    const api = renderPage({ 'GET /api/admin/affiliates': paged });
    const table = await screen.findByRole('table', { name: 'Affiliates' });
    expect(within(table).getAllByRole('row')).toHaveLength(51);
    expect(screen.getByText('120 in all · page 1 of 3')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('120 in all · page 2 of 3')).toBeVisible();
    expect(within(screen.getByRole('table', { name: 'Affiliates' })).getByText('SELLER51')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('120 in all · page 3 of 3')).toBeVisible();
    expect(within(screen.getByRole('table', { name: 'Affiliates' })).getAllByRole('row')).toHaveLength(21);
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('120 in all · page 2 of 3')).toBeVisible();

    // SELLER11 and SELLER110 to SELLER119
    await userEvent.type(screen.getByLabelText('Search code or e-mail'), '11');
    expect(await screen.findByText('11 in all · page 1 of 1')).toBeVisible();
    expect(api.callsTo('GET', '/api/admin/affiliates').at(-1)?.search).toBe('?q=11&page=1');
  });

  it('says when no affiliate matches the search', async () => {
    renderPage({ 'GET /api/admin/affiliates': paged });
    await screen.findByRole('table', { name: 'Affiliates' });
    await userEvent.type(screen.getByLabelText('Search code or e-mail'), 'x');
    expect(await screen.findByText('No affiliate matches the search.')).toBeVisible();
  });
});
