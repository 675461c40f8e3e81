import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TradingViewHealth } from '@shared/admin-ops-contract';
import type { ScriptCatalogView } from '@shared/script-catalog';
import { renderWithAuth, resetAfterTest, stubApi } from '@client/test/render';
import { AdminTradingViewPage } from './admin-tradingview-page';

const HEALTH: TradingViewHealth = {
  adapter: 'sandbox',
  account: 'candlewise',
  ok: true,
  error: null,
  checkedAt: '2026-11-26T20:00:00.000Z',
  lastBackgroundCheckAt: null,
  scripts: [
    { scriptId: 'PUB;pro-v2', users: 12 },
    { scriptId: 'PUB;not-in-catalog', users: null },
  ],
  outage: null,
};
const CATALOG: ScriptCatalogView = { scripts: [{ id: 'PUB;pro-v2', name: 'Candlewise Pro V2', plans: ['monthly'], syncedAt: null }] };

afterEach(resetAfterTest);

describe("the TradingView page's session card (#46)", () => {
  it('names each script by its name, the id under it, and shows an id the catalog does not name as it is', async () => {
    stubApi({ 'GET /api/admin/tradingview/health': { body: HEALTH }, 'GET /api/admin/tradingview/scripts': { body: CATALOG } });
    renderWithAuth([{ path: '/admin/tradingview', element: <AdminTradingViewPage /> }], { path: '/admin/tradingview' });
    const table = await screen.findByRole('table', { name: 'Scripts' });
    await within(table).findByText('Candlewise Pro V2');
    const rows = within(table).getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Candlewise Pro V2PUB;pro-v2', '12'],
      ['PUB;not-in-catalog', 'unavailable'],
    ]);
  });
});
