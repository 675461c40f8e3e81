import type { Db } from '../../db/client';
import type { PaymentEventHandler } from '../fulfilment/fulfilment';
import type { PaymentsPort } from '../payments/payments.port';
import type { TradingViewPort } from '../tradingview/tradingview.port';
import { createAccessChangesBacklog } from './access-changes-backlog.service';
import type { AdminOpsServices } from './admin-ops.routes';
import type { OperatorAlerts } from './alerts.service';
import { createOperatorActions } from './operator-actions';
import { createPaymentsReport } from './payments-report.service';
import { createSandboxTools, type MemberMailsAheadDeps } from './sandbox-tools.service';

/** The console's payments, access-change delivery, alerts and sandbox services (the composition root builds them once). */
export function createAdminOpsServices(deps: {
  db: Db;
  tradingView: TradingViewPort;
  clock: () => Date;
  handler: PaymentEventHandler;
  alerts: OperatorAlerts;
  payments: Pick<PaymentsPort, 'refundPayment'>;
  /** The member mails' pass for the sandbox tools; null where mails or payments are live. */
  memberMails: MemberMailsAheadDeps;
}): AdminOpsServices {
  const { db, tradingView, clock, handler, alerts } = deps;
  const actions = createOperatorActions(db);
  return {
    payments: createPaymentsReport({ db, handler, actions, payments: deps.payments }),
    accessChanges: createAccessChangesBacklog({ db }),
    alerts,
    sandbox: createSandboxTools({ db, tradingView, actions, clock, memberMails: deps.memberMails }),
  };
}
