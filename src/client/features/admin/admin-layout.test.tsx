import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemberDetail } from '@shared/admin-contract';
import { renderWithAuth, resetAfterTest, stubApi, type ApiRoute } from '@client/test/render';
import { AdminLayout } from './admin-layout';

const MEMBER_ID = '22222222-2222-4222-8222-222222222222';
const session = (email: string) => ({ body: { user: { id: '11111111-1111-4111-8111-111111111111', email, name: 'x', createdAt: '2025-01-01T00:00:00.000Z' }, session: { id: 's', expiresAt: '2099-01-01T00:00:00.000Z' } } });

const DETAIL: MemberDetail = {
  account: { id: MEMBER_ID, email: 'buyer@example.com', name: 'buyer', createdAt: '2026-01-01T00:00:00.000Z', emailVerified: true, status: 'active' },
  subscriptions: [],
  orders: [],
  grants: [
    {
      username: 'buyer_tv',
      desired: 'grant',
      status: 'failed',
      expiresAt: '2026-02-01T00:00:00.000Z',
      attempts: 3,
      lastError: 'TradingView session expired',
      nextAttemptAt: '2026-01-05T10:00:00.000Z',
      scripts: [{ scriptId: 'PUB;abc', granted: false, grantedUntil: null }],
    },
  ],
  securityEvents: [],
  customerUrl: '/sandbox/portal/cus_123',
};

function renderConsole(path: string, routes: Record<string, ApiRoute>) {
  const api = stubApi(routes);
  renderWithAuth([{ path: '/admin/*', element: <AdminLayout /> }], { path });
  return api;
}

afterEach(resetAfterTest);

describe('AdminLayout', () => {
  it('shows the ordinary 404 page to a member who is not an operator', async () => {
    renderConsole('/admin', { 'GET /api/auth/get-session': session('member@example.com'), 'GET /api/operator': { body: { operator: false } } });
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Operator console' })).not.toBeInTheDocument();
  });

  it('shows the 404 page to a visitor without asking the server about operators', async () => {
    const api = renderConsole('/admin/members', { 'GET /api/auth/get-session': { body: null } });
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/operator')).toEqual([]);
  });

  it('shows an operator a failed grant with its error and next retry, and the result of a confirmed retry', async () => {
    const api = renderConsole(`/admin/members/${MEMBER_ID}`, {
      'GET /api/auth/get-session': session('operator@example.com'),
      'GET /api/operator': { body: { operator: true } },
      [`GET /api/admin/members/${MEMBER_ID}`]: { body: DETAIL },
      [`POST /api/admin/members/${MEMBER_ID}/retry-grant`]: { body: { message: 'Retrying buyer_tv now.' } },
    });
    expect(await screen.findByRole('heading', { name: 'buyer@example.com' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Operator console' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Overview', 'Members', 'TradingView', 'Payments', 'Audit log']);
    const grant = screen.getByRole('row', { name: /buyer_tv/ });
    expect(grant).toHaveTextContent('failed');
    expect(grant).toHaveTextContent('TradingView session expired');
    expect(grant).toHaveTextContent('Jan 5, 2026');
    expect(screen.getByRole('link', { name: 'Open in sandbox portal' })).toHaveAttribute('href', '/sandbox/portal/cus_123');

    await userEvent.click(screen.getByRole('button', { name: 'Retry grant now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry the TradingView grant now' });
    expect(api.callsTo('POST', `/api/admin/members/${MEMBER_ID}/retry-grant`)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry now' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Retrying buyer_tv now.');
    expect(api.callsTo('POST', `/api/admin/members/${MEMBER_ID}/retry-grant`)).toHaveLength(1);
  });
});
