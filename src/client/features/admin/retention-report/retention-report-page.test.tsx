import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { addMonths, monthKey, type RetentionReport } from '@shared/retention-report';
import { errorReply, renderWithAuth, resetAfterTest, stubApi, type ApiRoute } from '@client/test/render';
import { OPERATOR_CONSOLE_ROUTES } from '@client/test/fixtures';
import { AdminLayout } from '../admin-layout';

afterEach(resetAfterTest);

const PATH = '/api/admin/retention/report';

const REPORT: RetentionReport = {
  from: '2026-09',
  to: '2026-10',
  computedAt: '2026-10-29T04:00:00.000Z',
  cohorts: [{ cohort: '2026-09', members: 3, after: [{ after: 1, eligible: 3, retained: 2, share: 66.7 }] }],
  churn: [
    { month: '2026-09', payingAtStart: 0, voluntary: 0, involuntary: 1, reversed: 0, operator: 0, rate: null },
    { month: '2026-10', payingAtStart: 2, voluntary: 1, involuntary: 0, reversed: 0, operator: 0, rate: 50 },
  ],
  reasons: [
    { reason: 'too_expensive', total: 0, declined: 0, discount: 0, pause: 0 },
    { reason: 'not_trading', total: 3, declined: 1, discount: 0, pause: 2 },
    { reason: 'missing_features', total: 0, declined: 0, discount: 0, pause: 0 },
    { reason: 'technical_problems', total: 0, declined: 0, discount: 0, pause: 0 },
    { reason: 'switching', total: 0, declined: 0, discount: 0, pause: 0 },
    { reason: 'other', total: 0, declined: 0, discount: 0, pause: 0 },
  ],
  mrr: [
    { month: '2026-09', currency: 'usd', start: 0, end: 5800, new: 5800, expansion: 0, contraction: 0, churn: 0, reactivation: 0 },
    { month: '2026-10', currency: 'usd', start: 5800, end: 2900, new: 0, expansion: 0, contraction: 0, churn: -2900, reactivation: 0 },
  ],
  lifetimeValue: [{ plan: 'monthly', currency: 'usd', members: 3, revenue: 8600, perMember: 2867 }],
  trials: [
    { month: '2026-09', converted: 0, canceled: 0, rate: null },
    { month: '2026-10', converted: 3, canceled: 1, rate: 75 },
  ],
  reversals: [
    { month: '2026-09', orders: 3, refunded: 1, disputed: 0, refundRate: 33.3, disputeRate: 0 },
    { month: '2026-10', orders: 1, refunded: 0, disputed: 0, refundRate: 0, disputeRate: 0 },
  ],
  promotions: [{ code: 'SPRING', currency: 'usd', orders: 1, revenue: 2800, discount: 100 }],
  affiliates: [],
};

function renderPage(report: ApiRoute = { body: REPORT }) {
  const api = stubApi({
    ...OPERATOR_CONSOLE_ROUTES,
    [`GET ${PATH}`]: report,
  });
  renderWithAuth([{ path: '/admin/*', element: <AdminLayout /> }], { path: '/admin/retention-report' });
  return api;
}

const table = (name: string) => screen.findByRole('table', { name });

describe('the Retention page', () => {
  it('shows each number under its chart: cohorts, churn by kind, reasons, MRR movement, LTV, trials, refunds, codes', async () => {
    const api = renderPage();
    expect(await screen.findByRole('heading', { name: 'Retention', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Retention' })).toHaveAttribute('aria-current', 'page');
    const cohorts = await table('Share of each cohort with access after 1, 2, 3… months');
    expect(within(cohorts).getByRole('row', { name: '2026-09 3 66.7 %' })).toBeInTheDocument();
    expect(within(await table('Churn per month')).getByRole('row', { name: '2026-10 2 1 0 0 0 50 %' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Members lost per month, by kind' })).toBeInTheDocument();
    expect(within(await table('Cancellations per reason')).getByRole('row', { name: 'Not trading now 3 1 0 2' })).toBeInTheDocument();
    expect(within(await table('MRR movement in USD')).getByRole('row', { name: '2026-10 $58.00 $0.00 $0.00 $0.00 -$29.00 $0.00 $29.00' })).toBeInTheDocument();
    expect(within(await table('Lifetime value per plan')).getByRole('row', { name: /Monthly 3 \$86\.00 \$28\.67/ })).toBeInTheDocument();
    expect(within(await table('Trial conversion per month')).getByRole('row', { name: '2026-10 3 1 75 %' })).toBeInTheDocument();
    expect(within(await table('Refunds and disputes per month')).getByRole('row', { name: '2026-09 3 1 (33.3 %) 0 (0 %)' })).toBeInTheDocument();
    expect(within(await table('Revenue per promotion code')).getByRole('row', { name: 'SPRING 1 $28.00 $1.00' })).toBeInTheDocument();
    expect(screen.getByText('No orders of referred members.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download churn reasons (CSV)' })).toHaveAttribute('href', '/api/admin/exports/churn-reasons.csv');
    const current = monthKey(new Date());
    expect(api.callsTo('GET', PATH)[0]!.search).toBe(`?from=${addMonths(current, -11)}&to=${current}`);
  });

  it('asks for the months chosen', async () => {
    const api = renderPage();
    await table('Churn per month');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /Months/ }), 'Last 3 months');
    const current = monthKey(new Date());
    await expect.poll(() => api.callsTo('GET', PATH).map((call) => call.search)).toContain(`?from=${addMonths(current, -2)}&to=${current}`);
  });

  it('says so when the numbers cannot be loaded', async () => {
    renderPage(errorReply(500, 'internal', 'boom'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the retention numbers.');
  });
});
