// The console as the app shell puts it together (admin-console.tsx): the integrations' pages in
// the nav after Members, in the server registry's order, and the member page's communities named
// through each integration's own part (Discord's roles asked of Discord; Telegram's chats in the answer).
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { MemberDetail } from '@shared/admin-contract';
import { renderWithAuth, resetAfterTest, stubApi, type ApiRoute } from '@client/test/render';
import { OPERATOR_CONSOLE_ROUTES } from '@client/test/fixtures';
import { AdminConsole } from './admin-console';

const MEMBER_ID = '22222222-2222-4222-8222-222222222222';

const DETAIL: MemberDetail = {
  account: { id: MEMBER_ID, email: 'buyer@example.com', name: 'buyer', createdAt: '2026-01-01T00:00:00.000Z', emailVerified: true, status: 'active', isOperator: false },
  subscriptions: [],
  orders: [],
  grants: [],
  securityEvents: [],
  customerUrl: '/sandbox/portal/cus_123',
  ban: null,
  accessHistory: [],
  communities: [
    { name: 'discord', title: 'Discord', gives: 'roles', names: {}, accounts: [] },
    { name: 'telegram', title: 'Telegram', gives: 'chats', names: {}, accounts: [] },
  ],
  usernameHistory: [],
};

type Community = MemberDetail['communities'][number];
/** The member's detail with these accounts in the named community. */
const withAccounts = (name: string, accounts: Community['accounts'], names: Community['names'] = {}): MemberDetail => ({
  ...DETAIL,
  communities: DETAIL.communities.map((community) => (community.name === name ? { ...community, accounts, names } : community)),
});

function renderConsole(path: string, routes: Record<string, ApiRoute>) {
  const api = stubApi(routes);
  renderWithAuth([{ path: '/admin/*', element: <AdminConsole /> }], { path });
  return api;
}

afterEach(resetAfterTest);

describe('the console with its integrations', () => {
  it("lists the integrations' pages after Members, TradingView first: Discord's is in the navigation next to TradingView", async () => {
    renderConsole('/admin/discord', {
      ...OPERATOR_CONSOLE_ROUTES,
      'GET /api/admin/discord/overview': { body: { adapter: 'sandbox', linkedMembers: 0, synced: 0, pending: 0, failing: 0 } },
      'GET /api/admin/discord/roles': { body: { roles: [], error: null } },
      'GET /api/admin/discord/accounts': { body: { accounts: [], page: 1, pageSize: 25, total: 0 } },
      'GET /api/admin/discord/repairs': { body: { repairs: [] } },
    });
    expect(await screen.findByRole('heading', { name: 'Discord', level: 1 })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Operator console' });
    expect(within(nav).getAllByRole('link').map((link) => link.textContent)).toEqual(['Overview', 'Members', 'TradingView', 'Discord', 'Telegram', 'Payments', 'Plans', 'Price lists', 'Sales', 'Promotion codes', 'Affiliates', 'Content', 'Import', 'Audit log', 'Operators', 'Funnel', 'Cancellations', 'Retention', 'Sandbox']);
    expect(within(nav).getByRole('link', { name: 'TradingView' })).toHaveAttribute('href', '/admin/tradingview');
    expect(within(nav).getByRole('link', { name: 'Discord' })).toHaveAttribute('aria-current', 'page');
  });

  it("shows an operator the member's Discord links, the current one first, with roles by name and the failure", async () => {
    const discord: Community['accounts'] = [
      { accountId: '100000000000000002', username: 'buyer_new', current: true, wanted: ['r-vip'], held: [], status: 'failed', attempts: 2, lastError: 'missing_permissions: Missing Permissions', nextAttemptAt: '2026-01-05T10:00:00.000Z', linkedAt: '2026-01-04T10:00:00.000Z' },
      { accountId: '100000000000000001', username: 'buyer_old', current: false, wanted: [], held: ['r-vip', 'r-gone'], status: 'pending', attempts: 0, lastError: null, nextAttemptAt: '2026-01-04T10:00:00.000Z', linkedAt: '2026-01-01T10:00:00.000Z' },
    ];
    renderConsole(`/admin/members/${MEMBER_ID}`, {
      ...OPERATOR_CONSOLE_ROUTES,
      [`GET /api/admin/members/${MEMBER_ID}`]: { body: withAccounts('discord', discord) },
      'GET /api/admin/discord/roles': { body: { roles: [{ id: 'r-vip', name: 'VIP' }], error: null } },
    });
    const heading = await screen.findByRole('heading', { name: 'Discord' });
    const section = heading.parentElement!;
    await within(section).findAllByText('VIP');
    const rows = within(section).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['buyer_new', 'Current', 'none', 'VIP', 'Failed · 2 attempts', 'missing_permissions: Missing Permissions', 'Jan 5, 2026, 10:00 AM UTC'],
      ['buyer_old', 'Old', 'VIP, r-gone', 'none', 'Pending · 0 attempts', '—', 'Jan 4, 2026, 10:00 AM UTC'],
    ]);
  });

  it('shows Discord roles by id, and says why, when Discord does not give their names', async () => {
    const discord: Community['accounts'] = [
      { accountId: '100000000000000002', username: 'buyer_new', current: true, wanted: ['r-vip'], held: ['r-vip'], status: 'synced', attempts: 0, lastError: null, nextAttemptAt: null, linkedAt: '2026-01-04T10:00:00.000Z' },
    ];
    renderConsole(`/admin/members/${MEMBER_ID}`, {
      ...OPERATOR_CONSOLE_ROUTES,
      [`GET /api/admin/members/${MEMBER_ID}`]: { body: withAccounts('discord', discord) },
      'GET /api/admin/discord/roles': { body: { roles: [], error: 'network: Discord is unreachable' } },
    });
    const heading = await screen.findByRole('heading', { name: 'Discord' });
    expect(await within(heading.parentElement!).findByRole('note')).toHaveTextContent('Role names are unavailable (network: Discord is unreachable): roles are shown by id.');
    expect(within(heading.parentElement!).getByRole('row', { name: /buyer_new/ })).toHaveTextContent('r-vip');
  });

  it('says so when the member linked no Discord account, without asking for role names', async () => {
    const api = renderConsole(`/admin/members/${MEMBER_ID}`, {
      ...OPERATOR_CONSOLE_ROUTES,
      [`GET /api/admin/members/${MEMBER_ID}`]: { body: DETAIL },
    });
    const heading = await screen.findByRole('heading', { name: 'Discord' });
    expect(heading.parentElement).toHaveTextContent('No Discord account linked.');
    expect(api.callsTo('GET', '/api/admin/discord/roles')).toEqual([]);
  });

  it("shows the member's Telegram accounts beside Discord's, with chats by the names the answer gives", async () => {
    const telegram: Community['accounts'] = [
      { accountId: '300000002', username: 'buyer_tg', current: true, wanted: ['-1001', '-1002'], held: ['-1001'], status: 'processing', attempts: 1, lastError: null, nextAttemptAt: null, linkedAt: '2026-01-04T10:00:00.000Z' },
    ];
    const api = renderConsole(`/admin/members/${MEMBER_ID}`, {
      ...OPERATOR_CONSOLE_ROUTES,
      [`GET /api/admin/members/${MEMBER_ID}`]: { body: withAccounts('telegram', telegram, { '-1001': 'VIP Signals' }) },
    });
    const section = (await screen.findByRole('heading', { name: 'Telegram' })).parentElement!;
    expect(within(section).getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual(['Telegram user', 'Link', 'Chats held', 'Chats wanted', 'State', 'Last error', 'Next retry']);
    const [row] = within(section).getAllByRole('row').slice(1);
    expect(within(row!).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['buyer_tg', 'Current', 'VIP Signals', 'VIP Signals, -1002', 'Updating chats · 1 attempt', '—', '—']);
    expect((await screen.findByRole('heading', { name: 'Discord' })).parentElement).toHaveTextContent('No Discord account linked.');
    // Telegram's chats are named in the answer: nothing is asked of Discord
    expect(api.callsTo('GET', '/api/admin/discord/roles')).toEqual([]);
  });
});
