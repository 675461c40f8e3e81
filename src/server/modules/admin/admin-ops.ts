import type { Db } from '../../db/client';
import type { PaymentEventHandler } from '../fulfilment/fulfilment';
import type { PaymentsPort } from '../payments/payments.port';
import type { GrantReconciler } from '../tradingview/grant-reconciler';
import type { TradingViewPort } from '../tradingview/tradingview.port';
import { createAccessChangesBacklog } from './access-changes-backlog.service';
import type { AdminOpsServices } from './admin-ops.routes';
import type { OperatorAlerts } from './alerts.service';
import { createOperatorActions } from './operator-actions';
import { createPaymentsReport } from './payments-report.service';
import { createSandboxTools } from './sandbox-tools.service';
import { createTradingViewHealthService } from './tradingview-health.service';

/** The console's TradingView, payments, access-change delivery, alerts and sandbox services (the composition root builds them once). */
export function createAdminOpsServices(deps: {
  db: Db;
  tradingView: TradingViewPort;
  reconciler: GrantReconciler;
  scriptIds: readonly string[];
  clock: () => Date;
  handler: PaymentEventHandler;
  alerts: OperatorAlerts;
  payments: Pick<PaymentsPort, 'refundPayment'>;
}): AdminOpsServices {
  const { db, tradingView, reconciler, scriptIds, clock, handler, alerts } = deps;
  const actions = createOperatorActions(db);
  return {
    tradingView: createTradingViewHealthService({ db, port: tradingView, reconciler, scriptIds, clock, actions }),
    payments: createPaymentsReport({ db, handler, actions, payments: deps.payments }),
    accessChanges: createAccessChangesBacklog({ db }),
    alerts,
    sandbox: createSandboxTools({ db, tradingView, actions }),
  };
}
