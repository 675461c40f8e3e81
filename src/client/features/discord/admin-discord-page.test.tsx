import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { DiscordAccount, DiscordAccounts, DiscordOverview, DiscordRepairs } from '@shared/admin-contract';
import { errorReply, renderWithAuth, resetAfterTest, stubApi, type ApiRoute } from '@client/test/render';
import { signedInAs } from '@client/test/fixtures';
import { AdminDiscordPage } from './admin-discord-page';


const OVERVIEW: DiscordOverview = { adapter: 'sandbox', linkedMembers: 12, synced: 10, pending: 1, failing: 2 };
const ROLES = { roles: [{ id: 'r-vip', name: 'VIP' }, { id: 'r-year', name: 'Yearly' }], error: null };

const FAILING: DiscordAccount = {
  id: 'aaaaaaaa-0000-4000-8000-000000000001',
  userId: '22222222-2222-4222-8222-222222222222',
  email: 'blocked@example.com',
  discordUserId: '100000000000000001',
  username: 'blocked_trader',
  current: true,
  wantedRoles: [{ id: 'r-vip', name: 'VIP' }, { id: 'r-year', name: 'Yearly' }],
  heldRoles: [],
  status: 'failed',
  attempts: 3,
  lastError: 'missing_permissions: Missing Permissions',
  nextAttemptAt: '2026-01-05T10:00:00.000Z',
  failingSince: '2026-01-05T09:00:00.000Z',
  linkedAt: '2026-01-05T08:00:00.000Z',
};
const OLD_LINK: DiscordAccount = {
  ...FAILING,
  id: 'aaaaaaaa-0000-4000-8000-000000000002',
  userId: '33333333-3333-4333-8333-333333333333',
  email: 'relinked@example.com',
  discordUserId: '100000000000000002',
  username: 'first_account',
  current: false,
  wantedRoles: [],
  heldRoles: [{ id: 'r-vip', name: 'VIP' }],
  status: 'pending',
  attempts: 0,
  lastError: null,
  nextAttemptAt: '2026-01-05T11:00:00.000Z',
  failingSince: null,
};
const SYNCED: DiscordAccount = { ...OLD_LINK, id: 'aaaaaaaa-0000-4000-8000-000000000003', email: 'vip@example.com', username: 'vip_trader', current: true, wantedRoles: [{ id: 'r-vip', name: null }], heldRoles: [{ id: 'r-vip', name: null }], status: 'synced', nextAttemptAt: null };

const page = (accounts: DiscordAccount[], total = accounts.length): DiscordAccounts => ({ accounts, page: 1, pageSize: 25, total });

const REPAIRS: DiscordRepairs = {
  repairs: [
    { id: 'r2', repairedAt: '2026-01-06T12:00:00.000Z', userId: null, email: null, discordUserId: '100000000000000009', username: null, role: { id: 'r-vip', name: 'VIP' }, action: 'removed', reason: 'held by no linked member' },
    { id: 'r1', repairedAt: '2026-01-06T11:00:00.000Z', userId: FAILING.userId, email: 'vip@example.com', discordUserId: '100000000000000003', username: 'vip_trader', role: { id: 'r-year', name: null }, action: 'added', reason: 'a member with access was missing it' },
  ],
};

function renderPage(routes: Record<string, ApiRoute> = {}, path = '/admin/discord') {
  const api = stubApi({
    'GET /api/auth/get-session': signedInAs('operator@example.com'),
    'GET /api/admin/discord/overview': { body: OVERVIEW },
    'GET /api/admin/discord/roles': { body: ROLES },
    'GET /api/admin/discord/accounts': (call) => ({ body: new URLSearchParams(call.search).get('failing') === 'true' ? page([FAILING]) : page([FAILING, OLD_LINK, SYNCED]) }),
    'GET /api/admin/discord/repairs': { body: REPAIRS },
    ...routes,
  });
  renderWithAuth([{ path: '/admin/discord', element: <AdminDiscordPage /> }], { path });
  return api;
}

const cellsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));

afterEach(resetAfterTest);

describe('DiscordPage', () => {
  // its place in the console's navigation, next to TradingView, is the app's registry's (src/client/app/admin-console.test.tsx)
  it('shows the counts, the linked accounts and the repairs', async () => {
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Discord', level: 1 })).toBeVisible();

    const counts = await screen.findByRole('region', { name: 'Discord at a glance' });
    expect(within(counts).getAllByRole('term').map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`)).toEqual(['Linked members: 12', 'Synced: 10', 'Pending: 1', 'Failing: 2']);

    const accounts = await screen.findByRole('table', { name: 'Linked Discord accounts' });
    expect(cellsOf(accounts)).toEqual([
      ['blocked@example.com', 'blocked_trader', 'Current', 'VIP, Yearly', 'none', 'Failed', '3', 'missing_permissions: Missing Permissions', 'Jan 5, 2026, 10:00 AM UTC', 'Retry now'],
      ['relinked@example.com', 'first_account', 'Old', 'none', 'VIP', 'Pending', '0', '—', 'Jan 5, 2026, 11:00 AM UTC', ''],
      ['vip@example.com', 'vip_trader', 'Current', 'r-vip', 'r-vip', 'Synced', '0', '—', '—', ''],
    ]);
    expect(within(accounts).getByRole('link', { name: 'blocked@example.com' })).toHaveAttribute('href', `/admin/members/${FAILING.userId}`);

    const repairs = await screen.findByRole('table', { name: 'Audit repairs' });
    expect(cellsOf(repairs)).toEqual([
      ['Jan 6, 2026, 12:00 PM UTC', 'no member', '100000000000000009', 'VIP', 'Taken away', 'held by no linked member'],
      ['Jan 6, 2026, 11:00 AM UTC', 'vip@example.com', 'vip_trader', 'r-year', 'Given back', 'a member with access was missing it'],
    ]);
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('lists only the failing accounts under "Failing only", in the address too', async () => {
    const api = renderPage();
    await screen.findByRole('table', { name: 'Linked Discord accounts' });
    await userEvent.click(screen.getByRole('checkbox', { name: 'Failing only' }));
    await screen.findByRole('table', { name: 'Linked Discord accounts' });
    await within(screen.getByRole('table', { name: 'Linked Discord accounts' })).findByText('blocked_trader');
    expect(api.callsTo('GET', '/api/admin/discord/accounts').at(-1)?.search).toBe('?page=1&failing=true');
    expect(cellsOf(screen.getByRole('table', { name: 'Linked Discord accounts' })).map((row) => row[1])).toEqual(['blocked_trader']);
    expect(screen.getByRole('checkbox', { name: 'Failing only' })).toBeChecked();
  });

  it('says so when no account is failing', async () => {
    renderPage({ 'GET /api/admin/discord/accounts': { body: page([]) } }, '/admin/discord?failing=1');
    expect(await screen.findByText('No account is failing.')).toBeVisible();
    expect(screen.getByRole('checkbox', { name: 'Failing only' })).toBeChecked();
  });

  it('retries a failing account only once the operator confirms, and shows the answer', async () => {
    const retryPath = `/api/admin/discord/accounts/${FAILING.id}/retry`;
    const api = renderPage({ [`POST ${retryPath}`]: { body: { message: 'Retrying blocked_trader now.' } } });
    const row = await screen.findByRole('row', { name: /blocked_trader/ });
    await userEvent.click(within(row).getByRole('button', { name: 'Retry now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retry blocked_trader now' });
    expect(api.callsTo('POST', retryPath)).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retry now' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Retrying blocked_trader now.');
    expect(api.callsTo('POST', retryPath)).toHaveLength(1);
  });

  it('runs the audit once confirmed and answers its summary in words', async () => {
    const api = renderPage({ 'POST /api/admin/discord/audit': { body: { checked: 40, added: 1, removed: 2, requeued: 0 } } });
    await screen.findByRole('table', { name: 'Audit repairs' });
    const repairsBefore = api.callsTo('GET', '/api/admin/discord/repairs').length;
    await userEvent.click(screen.getByRole('button', { name: 'Run audit now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run the Discord audit now' });
    expect(api.callsTo('POST', '/api/admin/discord/audit')).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Run audit' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Checked 40 guild members: 1 role given back, 2 roles taken away, 0 accounts queued again.');
    expect(api.callsTo('POST', '/api/admin/discord/audit')).toHaveLength(1);
    // the repairs are read again
    await expect.poll(() => api.callsTo('GET', '/api/admin/discord/repairs').length).toBeGreaterThan(repairsBefore);
  });

  it("shows Discord's cause when the audit fails", async () => {
    renderPage({ 'POST /api/admin/discord/audit': { status: 502, body: { error: { code: 'discord_unavailable', message: 'Discord could not be reached. Please try again in a moment.', details: { reason: 'network: Discord is unreachable' } } } } });
    await userEvent.click(await screen.findByRole('button', { name: 'Run audit now' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run the Discord audit now' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Run audit' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Discord could not be reached. Please try again in a moment. (network: Discord is unreachable)');
  });

  it('says once that role names are unavailable when Discord does not give them', async () => {
    renderPage({ 'GET /api/admin/discord/roles': { body: { roles: [], error: 'network: Discord is unreachable' } } });
    expect(await screen.findByRole('note')).toHaveTextContent('Role names are unavailable (network: Discord is unreachable): roles are shown by id.');
  });

  it('says so when the accounts cannot be read', async () => {
    renderPage({ 'GET /api/admin/discord/accounts': errorReply(500, 'internal', 'boom') });
    expect(await screen.findByText('Could not load the linked accounts. Reload the page to try again.')).toBeVisible();
  });
});
