import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AffiliateList, TermsResponse } from '@shared/affiliates-contract';
import { errorReply, renderWithAuth, resetAfterTest, stubApi, type ApiRoute } from '@client/test/render';
import { AdminLayout } from '../admin-layout';

const session = { body: { user: { id: '11111111-1111-4111-8111-111111111111', email: 'operator@example.com', name: 'x', createdAt: '2025-01-01T00:00:00.000Z' }, session: { id: 's', expiresAt: '2099-01-01T00:00:00.000Z' } } };
const NONE = { pending: 0, approved: 0, paid: 0, reversed: 0 };
const LIST: AffiliateList = { affiliates: [], totals: { affiliates: 0, flagged: 0, suspended: 0, currency: 'usd', commissions: NONE, dueToApprove: 0 } };
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
    'GET /api/auth/get-session': session,
    'GET /api/operator': { body: { operator: true, standing: 'operator' } },
    'GET /api/admin/alerts': { body: { alerts: [] } },
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
