import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { PLAN_TYPES } from '@shared/plans';
import type { ScriptCatalogView } from '@shared/script-catalog';
import { errorReply, renderWithAuth, resetAfterTest, stubApi, type ApiRoute } from '@client/test/render';
import { ScriptCatalogCard } from './script-catalog-card';

const PRO = { id: 'PUB;pro', name: 'Pro V2', plans: [...PLAN_TYPES], syncedAt: '2026-11-26T10:00:00.000Z' };
const VOL = { id: 'PUB;vol', name: 'Volatility Index', plans: ['yearly', 'lifetime'], syncedAt: null } satisfies ScriptCatalogView['scripts'][number];

function renderCard(routes: Record<string, ApiRoute> = {}) {
  const api = stubApi({ 'GET /api/admin/tradingview/scripts': { body: { scripts: [PRO, VOL] } }, ...routes });
  renderWithAuth([{ path: '/admin/tradingview', element: <ScriptCatalogCard /> }], { path: '/admin/tradingview' });
  return api;
}

afterEach(resetAfterTest);

describe('ScriptCatalogCard', () => {
  it('shows each script with a box per plan, ticked where the plan grants it', async () => {
    renderCard();
    const table = await screen.findByRole('table', { name: 'Scripts and the plans that grant them' });
    const ticked = (name: string) => PLAN_TYPES.filter((plan) => (within(table).getAllByRole('checkbox', { name: new RegExp(`^${name}: `) })[PLAN_TYPES.indexOf(plan)] as HTMLInputElement).checked);
    expect(ticked('Pro V2')).toEqual([...PLAN_TYPES]);
    expect(ticked('Volatility Index')).toEqual(['yearly', 'lifetime']);
    expect(within(table).getByText('from TRADINGVIEW_SCRIPT_IDS, not synced yet')).toBeVisible();
  });

  it('saves the plans chosen for a script after a confirmation, and shows what the server said', async () => {
    const api = renderCard({
      'POST /api/admin/tradingview/scripts/plans': (call) => ({ body: { script: { ...VOL, plans: (call.body as { plans: string[] }).plans }, resynced: 4 } }),
    });
    await screen.findByRole('table', { name: 'Scripts and the plans that grant them' });
    const saves = screen.getAllByRole('button', { name: 'Save' });
    expect(saves[1]).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Volatility Index: Monthly' }));
    await userEvent.click(saves[1]!);
    await userEvent.click(await screen.findByRole('button', { name: 'Save plans' }));
    expect(await screen.findByText('Volatility Index is now in 3 plans; 4 members brought up to date.')).toBeVisible();
    expect(api.callsTo('POST', '/api/admin/tradingview/scripts/plans').map((call) => call.body)).toEqual([{ scriptId: 'PUB;vol', plans: ['monthly', 'yearly', 'lifetime'] }]);
  });

  it('syncs from TradingView and says what changed, or why it could not', async () => {
    let syncs = 0;
    renderCard({
      'POST /api/admin/tradingview/scripts/sync': () => {
        syncs += 1;
        return syncs === 1 ? errorReply(502, 'provider_unavailable', 'TradingView did not answer: 503') : { body: { added: ['PUB;new'], renamed: [], unlisted: [], scripts: [PRO, VOL, { ...PRO, id: 'PUB;new', plans: [] }] } };
      },
    });
    await screen.findByRole('table', { name: 'Scripts and the plans that grant them' });
    await userEvent.click(screen.getByRole('button', { name: 'Sync from TradingView' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('TradingView did not answer: 503');
    await userEvent.click(screen.getByRole('button', { name: 'Sync from TradingView' }));
    expect(await screen.findByRole('status')).toHaveTextContent('3 scripts in the catalog: 1 added, 0 renamed.');
  });
});
