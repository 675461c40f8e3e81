import type { Dependencies } from '../../dependencies';
import { createPaymentEventHandler, reconcileUsers } from '../billing/fulfilment';
import type { AdminOpsServices } from './admin-ops.routes';
import { createOperatorAlerts } from './alerts.service';
import { createOperatorActions } from './operator-actions';
import { operatorEmails } from './operator-emails';
import { createPaymentsReport } from './payments-report.service';
import { createSandboxTools } from './sandbox-tools.service';
import { createTradingViewHealthService } from './tradingview-health.service';

/** The console's TradingView, payments, alerts and sandbox services, built once by createApp. */
export function createAdminOpsServices(deps: Dependencies): AdminOpsServices {
  const { database, logger, clock, config } = deps;
  const db = database.db;
  const actions = createOperatorActions(db);
  const handler = createPaymentEventHandler({ db, payments: deps.payments, logger, clock, onUsersChanged: reconcileUsers(deps.reconciler) });
  return {
    tradingView: createTradingViewHealthService({ db, port: deps.tradingView, reconciler: deps.reconciler, scriptIds: config.tradingView.scriptIds, clock, actions }),
    payments: createPaymentsReport({ db, handler, actions }),
    alerts: createOperatorAlerts({ db, tradingView: deps.tradingView, recipients: () => operatorEmails({ config, db }), clock, logger: logger.child({ module: 'operator-alerts' }) }),
    sandbox: createSandboxTools({ db, tradingView: deps.tradingView, actions }),
  };
}
