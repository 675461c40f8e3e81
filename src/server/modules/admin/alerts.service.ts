// Operator alerts: each check measures the four conditions, and a condition that
// starts or ends writes one mail per operator through the outbox. The transition is claimed with
// a conditional update in the same transaction as the mails, so two instances checking at once
// send one set; the dedupe keys (alert, episode start, operator) make a retried write harmless.
import {
  alertTransition,
  GRANT_FAILING_ALERT_MS,
  OPERATOR_ALERT_KEYS,
  OPERATOR_ALERT_TITLES,
  SIGNATURE_FAILURE_THRESHOLD,
  SIGNATURE_FAILURE_WINDOW_MS,
  type AlertReading,
  type OperatorAlertKey,
} from '@shared/operator-alerts';
import type { OperatorAlert } from '@shared/admin-ops-contract';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { SignatureRefusals } from '../fulfilment/signature-refusals';
import { mailKeys } from '@shared/mail-intents';
import { enqueueMail } from '../mail/outbox.repository';
import { toTradingViewError, type TradingViewPort } from '../tradingview/tradingview.port';
import { activeAlerts, claimFire, claimResolve, findAlert, markChecked } from './alerts.repository';
import { failedRenewals } from '../entitlements/entitlement-reads';
import { grantsFailingSince } from '../tradingview/tradingview-console.repository';

export type OperatorAlertsDeps = {
  db: Db;
  tradingView: Pick<TradingViewPort, 'healthCheck'>;
  /** Who is mailed (operatorEmails), asked at each transition. */
  recipients: () => Promise<string[]>;
  clock: () => Date;
  logger: Logger;
  /** The webhook signatures this instance refused: the tally its webhook route counts into. */
  refusals: Pick<SignatureRefusals, 'countSince'>;
};

export type AlertChange = { key: OperatorAlertKey; transition: 'fire' | 'resolve' };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function createOperatorAlerts(deps: OperatorAlertsDeps) {
  const { db, clock, logger } = deps;
  const { refusals } = deps;

  async function tradingViewSession(): Promise<AlertReading> {
    const health = await deps.tradingView.healthCheck().catch((error: unknown) => {
      const failure = toTradingViewError(error);
      return { ok: false as const, kind: failure.kind, message: failure.message };
    });
    return { key: 'tradingview_session', firing: !health.ok, detail: health.ok ? null : `${health.kind}: ${health.message}` };
  }

  async function read(now: Date): Promise<AlertReading[]> {
    const failing = await grantsFailingSince(db, new Date(now.getTime() - GRANT_FAILING_ALERT_MS));
    const signatures = refusals.countSince(new Date(now.getTime() - SIGNATURE_FAILURE_WINDOW_MS));
    const renewals = await failedRenewals(db);
    return [
      await tradingViewSession(),
      { key: 'grant_failing', firing: failing > 0, detail: failing ? `${plural(failing, 'grant has', 'grants have')} been failing for more than 15 minutes.` : null },
      {
        key: 'webhook_signature',
        firing: signatures >= SIGNATURE_FAILURE_THRESHOLD,
        detail: signatures ? `${plural(signatures, 'delivery', 'deliveries')} refused for a bad signature in the last 15 minutes by one server instance: check STRIPE_WEBHOOK_SECRET (or the log, for forged deliveries).` : null,
        // counted in this instance's memory: another instance seeing none does not end it
        local: true,
      },
      { key: 'renewal_failed', firing: renewals > 0, detail: renewals ? `${plural(renewals, 'subscription is', 'subscriptions are')} past due after a failed renewal.` : null },
    ];
  }

  async function apply(reading: AlertReading, now: Date): Promise<AlertChange | null> {
    const stored = await findAlert(db, reading.key);
    const transition = alertTransition(stored, reading, now);
    if (transition === 'hold') return null;
    if (transition === 'none') {
      await markChecked(db, reading.key, reading.firing ? reading.detail : null, now);
      return null;
    }
    const title = OPERATOR_ALERT_TITLES[reading.key];
    const recipients = await deps.recipients();
    const claimed = await db.transaction(async (tx) => {
      if (transition === 'fire') {
        const since = await claimFire(tx, reading.key, reading.detail, now);
        if (!since) return false;
        for (const to of recipients) {
          await enqueueMail(tx, { template: 'operator_alert', to, data: { title, detail: reading.detail, since: since.toISOString() }, dedupeKey: mailKeys.operatorAlert(reading.key, since, to) });
        }
        return true;
      }
      const since = await claimResolve(tx, reading.key, now);
      if (!since) return false;
      for (const to of recipients) {
        await enqueueMail(tx, {
          template: 'operator_alert_resolved',
          to,
          data: { title, since: since.toISOString(), resolvedAt: now.toISOString() },
          dedupeKey: mailKeys.operatorAlertResolved(reading.key, since, to),
        });
      }
      return true;
    });
    if (!claimed) return null;
    (transition === 'fire' ? logger.error.bind(logger) : logger.info.bind(logger))({ alert: reading.key, detail: reading.detail }, transition === 'fire' ? 'operator alert' : 'operator alert resolved');
    return { key: reading.key, transition };
  }

  /** One check of every condition; the transitions this instance made. */
  async function check(): Promise<AlertChange[]> {
    const now = clock();
    const changes: AlertChange[] = [];
    for (const reading of await read(now)) {
      const change = await apply(reading, now);
      if (change) changes.push(change);
    }
    return changes;
  }

  /** The alerts on now, in a fixed order, for the console's banner. */
  async function active(): Promise<OperatorAlert[]> {
    const rows = await activeAlerts(db);
    return OPERATOR_ALERT_KEYS.flatMap((key) => {
      const row = rows.find((candidate) => candidate.key === key);
      return row ? [{ key, title: OPERATOR_ALERT_TITLES[key], detail: row.detail, since: (row.since ?? row.checkedAt ?? clock()).toISOString() }] : [];
    });
  }

  /** When a condition was last looked at (the console's TradingView page shows its session's). */
  async function lastChecked(key: OperatorAlertKey): Promise<Date | null> {
    return (await findAlert(db, key))?.checkedAt ?? null;
  }

  return { check, active, lastChecked };
}

export type OperatorAlerts = ReturnType<typeof createOperatorAlerts>;
