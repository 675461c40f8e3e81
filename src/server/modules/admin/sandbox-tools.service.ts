// The sandbox tools of the console: TradingView outage on and off, and the sandbox
// customers whose portal simulates a renewal. They exist only where the adapter is a sandbox.
import type { SandboxTools } from '@shared/admin-ops-contract';
import type { Db } from '../../db/client';
import type { TradingViewPort } from '../tradingview/tradingview.port';
import type { Operator, OperatorActions } from './operator-actions';
import { sandboxSubscriptions } from '../entitlements/entitlement-reads';
import { serverError } from '../../http/server-errors';

export function createSandboxTools(deps: { db: Db; tradingView: TradingViewPort; actions: OperatorActions }) {
  const { db, tradingView, actions } = deps;

  async function state(): Promise<SandboxTools> {
    const subscriptions = await sandboxSubscriptions(db, 50);
    return {
      tradingViewOutage: tradingView.sandbox ? await tradingView.sandbox.outage() : null,
      subscriptions: subscriptions.flatMap((row) => (row.customerId ? [{ ...row, customerId: row.customerId }] : [])),
    };
  }

  async function setOutage(down: boolean, operator: Operator): Promise<void> {
    if (!tradingView.sandbox) throw serverError('noOutageToSimulate');
    await tradingView.sandbox.setOutage(down);
    await actions.record({ operator, action: down ? 'sandbox.tradingview_outage_start' : 'sandbox.tradingview_outage_end' });
  }

  return { state, setOutage };
}

export type SandboxToolsService = ReturnType<typeof createSandboxTools>;
