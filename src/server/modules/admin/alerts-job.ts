import { createBackgroundLoop, type BackgroundLoop } from '../../jobs/background-loop';
import type { Logger } from '../../logger';
import type { OperatorAlerts } from './alerts.service';

/** Once a minute is soon enough for a human and light on TradingView (one health call). */
const ALERT_CHECK_INTERVAL_MS = 60_000;

/** The operator alerts' check on every instance (main.ts starts it); the table keeps one state for all. */
export function createOperatorAlertsJob(alerts: Pick<OperatorAlerts, 'check'>, logger: Logger): BackgroundLoop {
  return createBackgroundLoop({ pass: async () => void (await alerts.check()), intervalMs: ALERT_CHECK_INTERVAL_MS, firstDelayMs: 5_000, logger, label: 'operator alerts' });
}
