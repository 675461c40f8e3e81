import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemberDetail } from '@shared/admin-contract';
import { renderWithAuth, resetAfterTest, stubApi, type ApiRoute } from '@client/test/render';
import { OPERATOR_CONSOLE_ROUTES, signedInAs } from '@client/test/fixtures';
import { AdminLayout } from './admin-layout';

const MEMBER_ID = '22222222-2222-4222-8222-222222222222';

const DETAIL: MemberDetail = {
  account: { id: MEMBER_ID, email: 'buyer@example.com', name: 'buyer', createdAt: '2026-01-01T00:00:00.000Z', emailVerified: true, status: 'active', isOperator: false },
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
      scripts: [{ scriptId: 'PUB;abc', name: 'Pro V2', granted: false, grantedUntil: null }],
    },
  ],
  securityEvents: [],
  customerUrl: '/sandbox/portal/cus_123',
  ban: null,
  accessHistory: [
    { id: '3', kind: 'canceled', planType: 'quarterly', previousPlanType: 'quarterly', hasAccess: true, expiresAt: '2026-04-01T12:00:00.000Z', occurredAt: '2026-01-20T09:00:00.000Z' },
    { id: '2', kind: 'plan_changed', planType: 'quarterly', previousPlanType: 'monthly', hasAccess: true, expiresAt: '2026-04-01T12:00:00.000Z', occurredAt: '2026-01-10T09:00:00.000Z' },
    { id: '1', kind: 'bought', planType: 'monthly', previousPlanType: null, hasAccess: true, expiresAt: '2026-02-01T12:00:00.000Z', occurredAt: '2026-01-01T09:00:00.000Z' },
  ],
  communities: [
    { name: 'discord', title: 'Discord', gives: 'roles', names: {}, accounts: [] },
    { name: 'telegram', title: 'Telegram', gives: 'chats', names: {}, accounts: [] },
  ],
  usernameHistory: [],
};

function renderConsole(path: string, routes: Record<string, ApiRoute>) {
  const api = stubApi(routes);
  renderWithAuth([{ path: '/admin/*', element: <AdminLayout /> }], { path });
  return api;
}

afterEach(resetAfterTest);

describe('AdminLayout', () => {
  it('shows the ordinary 404 page to a member who is not an operator', async () => {
    renderConsole('/admin', { 'GET /api/auth/get-session': signedInAs('member@example.com'), 'GET /api/operator': { body: { operator: false, standing: 'member' } } });
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Operator console' })).not.toBeInTheDocument();
  });

  it('tells a named operator whose address is not confirmed to confirm it, and sends the link on request', async () => {
    const api = renderConsole('/admin', {
      'GET /api/auth/get-session': signedInAs('ops@example.com'),
      'GET /api/operator': { body: { operator: false, standing: 'confirm_email' } },
      'POST /api/auth/send-verification-email': { body: { status: true } },
    });
    expect(await screen.findByRole('heading', { name: 'Confirm your e-mail to open the console' })).toBeVisible();
    expect(screen.queryByRole('navigation', { name: 'Operator console' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Send confirmation link' }));
    expect(await screen.findByRole('status')).toHaveTextContent('We sent a link to ops@example.com.');
    expect(api.callsTo('POST', '/api/auth/send-verification-email').map((call) => call.body)).toEqual([{ email: 'ops@example.com', callbackURL: '/admin' }]);
  });

  it('walks a proven operator through two-factor enrolment: password, QR code and setup key, backup codes, code', async () => {
    const totpURI = 'otpauth://totp/Candlewise:ops%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Candlewise';
    const api = renderConsole('/admin', {
      'GET /api/auth/get-session': signedInAs('ops@example.com'),
      'GET /api/operator': { body: { operator: false, standing: 'enrol_two_factor' } },
      'POST /api/auth/two-factor/enable': { body: { totpURI, backupCodes: ['aaaa-1111', 'bbbb-2222'] } },
      'POST /api/auth/two-factor/verify-totp': { status: 401, body: { code: 'INVALID_CODE', message: 'Invalid code' } },
    });
    await userEvent.type(await screen.findByLabelText('Your password'), 'Sup3rSecret!');
    await userEvent.click(screen.getByRole('button', { name: 'Set up two-factor' }));
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    expect(screen.getByLabelText('Setup key')).toHaveTextContent('JBSW Y3DP EHPK 3PXP');
    expect(within(screen.getByRole('region', { name: 'Backup codes' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['aaaa-1111', 'bbbb-2222']);
    await userEvent.type(screen.getByLabelText('Authentication code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify and open the console' }));
    expect(await screen.findByText('That code is not valid. Check the time on your phone and try again.')).toBeVisible();
    expect(api.callsTo('POST', '/api/auth/two-factor/enable').map((call) => call.body)).toEqual([{ password: 'Sup3rSecret!' }]);
    expect(api.callsTo('POST', '/api/auth/two-factor/verify-totp').map((call) => call.body)).toEqual([{ code: '123456' }]);
  });

  it('asks an operator whose sign-in is too old (or skipped two-factor) to sign in again', async () => {
    renderConsole('/admin', { 'GET /api/auth/get-session': signedInAs('ops@example.com'), 'GET /api/operator': { body: { operator: false, standing: 'sign_in_again' } } });
    expect(await screen.findByRole('heading', { name: 'Sign in again to open the console' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Sign in again' })).toBeVisible();
    expect(screen.queryByRole('navigation', { name: 'Operator console' })).toBeNull();
  });

  it('shows the 404 page to a visitor without asking the server about operators', async () => {
    const api = renderConsole('/admin/members', { 'GET /api/auth/get-session': { body: null } });
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(api.callsTo('GET', '/api/operator')).toEqual([]);
  });

  it('shows an operator a failed grant with its error and next retry, and the result of a confirmed retry', async () => {
    const api = renderConsole(`/admin/members/${MEMBER_ID}`, {
      ...OPERATOR_CONSOLE_ROUTES,
      [`GET /api/admin/members/${MEMBER_ID}`]: { body: DETAIL },
      [`POST /api/admin/members/${MEMBER_ID}/retry-grant`]: { body: { message: 'Retrying buyer_tv now.' } },
    });
    expect(await screen.findByRole('heading', { name: 'buyer@example.com' })).toBeInTheDocument();
    // the integrations' pages are the app's to register (src/client/app/admin-console.test.tsx)
    const nav = screen.getByRole('navigation', { name: 'Operator console' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Overview', 'Members', 'Payments', 'Plans', 'Price lists', 'Sales', 'Promotion codes', 'Affiliates', 'Content', 'Import', 'Audit log', 'Operators', 'Funnel', 'Cancellations', 'Retention']);
    const grant = screen.getByRole('row', { name: /buyer_tv/ });
    expect(grant).toHaveTextContent('Failed (access wanted');
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

  it("shows an operator the member's access history, newest first, with the access after each change", async () => {
    const ended = { id: '4', kind: 'ended', planType: 'quarterly', previousPlanType: 'quarterly', hasAccess: false, expiresAt: null, occurredAt: '2026-04-01T12:00:00.000Z' } as const;
    renderConsole(`/admin/members/${MEMBER_ID}`, {
      ...OPERATOR_CONSOLE_ROUTES,
      [`GET /api/admin/members/${MEMBER_ID}`]: { body: { ...DETAIL, accessHistory: [ended, ...DETAIL.accessHistory] } },
    });
    const heading = await screen.findByRole('heading', { name: 'Access history' });
    const rows = within(heading.parentElement!).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['Apr 1, 2026, 12:00 PM UTC', 'Ended', 'No access'],
      ['Jan 20, 2026, 09:00 AM UTC', 'Canceled (access until Apr 1, 2026)', 'Has access'],
      ['Jan 10, 2026, 09:00 AM UTC', 'Plan changed: Monthly → Quarterly', 'Has access'],
      ['Jan 1, 2026, 09:00 AM UTC', 'Bought Monthly', 'Has access'],
    ]);
  });

  it('says so when no change of access was recorded', async () => {
    renderConsole(`/admin/members/${MEMBER_ID}`, {
      ...OPERATOR_CONSOLE_ROUTES,
      [`GET /api/admin/members/${MEMBER_ID}`]: { body: { ...DETAIL, accessHistory: [] } },
    });
    const heading = await screen.findByRole('heading', { name: 'Access history' });
    expect(heading.parentElement).toHaveTextContent('No change of access recorded yet.');
  });
});
