// The sandbox tools of the console: TradingView outage on and off, the sandbox customers whose
// portal simulates a renewal, and the member mails run days ahead. They exist only where the
// adapter is a sandbox.
import type { MemberMailsAhead, SandboxTools } from '@shared/admin-ops-contract';
import type { Db } from '../../db/client';
import type { TradingViewPort } from '../tradingview/tradingview.port';
import type { Operator, OperatorActions } from './operator-actions';
import { sandboxSubscriptions } from '../entitlements/entitlement-reads';
import { serverError } from '../../http/server-errors';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The member mails' pass at a given time (modules/member-mails, which imports this module: handed
 * in by the composition root) and the mail worker's wake-up; null where mails or payments are live.
 */
export type MemberMailsAheadDeps = { runOnce: (now: Date) => Promise<{ winback: number; reminders: number }>; kickMailer: () => void } | null;

export function createSandboxTools(deps: { db: Db; tradingView: TradingViewPort; actions: OperatorActions; clock: () => Date; memberMails: MemberMailsAheadDeps }) {
  const { db, tradingView, actions, clock, memberMails } = deps;

  async function state(): Promise<SandboxTools> {
    const subscriptions = await sandboxSubscriptions(db, 50);
    return {
      tradingViewOutage: tradingView.sandbox ? await tradingView.sandbox.outage() : null,
      subscriptions: subscriptions.flatMap((row) => (row.customerId ? [{ ...row, customerId: row.customerId }] : [])),
      memberMailsAhead: memberMails !== null,
    };
  }

  async function setOutage(down: boolean, operator: Operator): Promise<void> {
    if (!tradingView.sandbox) throw serverError('noOutageToSimulate');
    await tradingView.sandbox.setOutage(down);
    await actions.record({ operator, action: down ? 'sandbox.tradingview_outage_start' : 'sandbox.tradingview_outage_end' });
  }

  /**
   * The win-back mails and set-up reminders a pass `days` from now would write, written now (a
   * demo cannot wait a week). Their dedupe keys are the real pass's, so no member gets one twice;
   * in a live shop this would mail real members early, hence the refusal there.
   */
  async function runMemberMailsAhead(days: number, operator: Operator): Promise<MemberMailsAhead> {
    if (!memberMails) throw serverError('memberMailsAreLive');
    const asOf = new Date(clock().getTime() + days * DAY_MS);
    const summary = await memberMails.runOnce(asOf);
    if (summary.winback + summary.reminders > 0) memberMails.kickMailer();
    await actions.record({ operator, action: 'sandbox.member_mails_ahead', details: { days, ...summary } });
    return { asOf: asOf.toISOString(), ...summary };
  }

  return { state, setOutage, runMemberMailsAhead };
}

export type SandboxToolsService = ReturnType<typeof createSandboxTools>;
