import type { Dependencies } from '../../dependencies';
import { createBackgroundLoop, type BackgroundLoop } from '../../jobs/background-loop';
import { createOperatorAlerts } from './alerts.service';
import { operatorEmails } from './operator-emails';

/** Once a minute is soon enough for a human and light on TradingView (one health call). */
export const ALERT_CHECK_INTERVAL_MS = 60_000;

/** The operator alerts' check on every instance (main.ts starts it); the table keeps one state for all. */
export function createOperatorAlertsJob(deps: Pick<Dependencies, 'database' | 'tradingView' | 'config' | 'clock' | 'logger'>): BackgroundLoop {
  const alerts = createOperatorAlerts({
    db: deps.database.db,
    tradingView: deps.tradingView,
    recipients: () => operatorEmails({ config: deps.config, db: deps.database.db }),
    clock: deps.clock,
    logger: deps.logger.child({ module: 'operator-alerts' }),
  });
  return createBackgroundLoop({ pass: async () => void (await alerts.check()), intervalMs: ALERT_CHECK_INTERVAL_MS, firstDelayMs: 5_000, logger: deps.logger, label: 'operator alerts' });
}
