import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { GrantQueue } from '@shared/admin-ops-contract';
import { renderWithAuth, resetAfterTest, stubApi } from '@client/test/render';
import { AdminTradingViewPage } from './admin-tradingview-page';

const WAITING = {
  id: 'g1',
  userId: 'u1',
  email: 'trader@example.com',
  username: 'Trader_Joe',
  desired: 'grant',
  status: 'pending',
  attempts: 0,
  lastError: null,
  nextAttemptAt: '2026-11-26T20:02:00.000Z',
  failingSince: null,
  createdAt: '2026-11-26T20:00:00.000Z',
} satisfies GrantQueue['grants'][number];

function renderQueue(paused: GrantQueue['paused']) {
  stubApi({ 'GET /api/admin/tradingview/queue': { body: { grants: [WAITING], recent: [], paused } satisfies GrantQueue } });
  renderWithAuth([{ path: '/admin/tradingview', element: <AdminTradingViewPage /> }], { path: '/admin/tradingview' });
}

afterEach(resetAfterTest);

describe('the grant queue when TradingView makes it wait', () => {
  it('says TradingView throttled the shop, until when, and that no grant counts as failed', async () => {
    renderQueue({ reason: 'throttled', since: '2026-11-26T20:00:00.000Z', until: '2026-11-26T20:02:00.000Z', detail: 'list_users: 429 throttled' });
    const notice = await screen.findByText(/^Paused: TradingView asked us to wait until Nov 26, 2026, 08:02 PM UTC\. Grants go on by themselves then; none counts as failed\./);
    expect(notice).toHaveTextContent('(list_users: 429 throttled)');
    expect(await screen.findByRole('table', { name: 'Waiting grants' })).toBeVisible();
  });

  it('tells the operator to set a new session cookie when it expired', async () => {
    renderQueue({ reason: 'session_expired', since: '2026-11-26T20:00:00.000Z', until: null, detail: 'list_users: 401' });
    expect(await screen.findByText(/^Paused: the TradingView session cookie expired\. Set new TRADINGVIEW_SESSION_ID and TRADINGVIEW_SESSION_SIGN;/)).toBeVisible();
  });

  it('shows no notice while the queue runs', async () => {
    renderQueue(null);
    expect(await screen.findByRole('table', { name: 'Waiting grants' })).toBeVisible();
    expect(screen.queryByText(/^Paused:/)).toBeNull();
  });
});

describe('the grant queue in words (#46)', () => {
  it('says each grant’s state in words, and a removal under way as one', async () => {
    const failing = { ...WAITING, id: 'g2', email: 'failing@example.com', status: 'failed', lastError: 'network: down' } satisfies GrantQueue['grants'][number];
    const removing = { ...WAITING, id: 'g3', email: 'lapsed@example.com', desired: 'revoke', status: 'processing' } satisfies GrantQueue['grants'][number];
    stubApi({ 'GET /api/admin/tradingview/queue': { body: { grants: [WAITING, failing, removing], recent: [], paused: null } satisfies GrantQueue } });
    renderWithAuth([{ path: '/admin/tradingview', element: <AdminTradingViewPage /> }], { path: '/admin/tradingview' });
    const table = await screen.findByRole('table', { name: 'Waiting grants' });
    const states = within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell')[2]?.textContent);
    expect(states).toEqual(['Pending', 'Failed', 'Being sent (removal wanted)']);
  });
});
