// Operator alerts (issue 13): which conditions warn the operators, what each says, and the pure
// decision of what a check changes. The server measures the facts; this file decides.

export const OPERATOR_ALERT_KEYS = ['tradingview_session', 'grant_failing', 'webhook_signature', 'renewal_failed'] as const;
export type OperatorAlertKey = (typeof OPERATOR_ALERT_KEYS)[number];

/** A grant failing this long means buyers wait for access: the operators are told. */
export const GRANT_FAILING_ALERT_MS = 15 * 60_000;
/** Bad webhook signatures within this window, at least this many, count as "repeatedly". */
export const SIGNATURE_FAILURE_WINDOW_MS = 15 * 60_000;
export const SIGNATURE_FAILURE_THRESHOLD = 3;

export const OPERATOR_ALERT_TITLES: Record<OperatorAlertKey, string> = {
  tradingview_session: 'The TradingView session stopped working',
  grant_failing: 'TradingView grants have been failing for more than 15 minutes',
  webhook_signature: 'Webhook deliveries keep failing their signature check',
  renewal_failed: 'A renewal payment failed',
};

/** What one check measured for an alert: whether its condition holds, and what to tell. */
export type AlertReading = { key: OperatorAlertKey; firing: boolean; detail: string | null };

/** The stored state of an alert before the check. */
export type AlertState = { key: OperatorAlertKey; active: boolean };

export type AlertTransition = 'fire' | 'resolve' | 'none';

/** A condition that starts fires the alert, one that ends resolves it; anything else changes nothing. */
export function alertTransition(state: AlertState | null, reading: AlertReading): AlertTransition {
  const active = state?.active ?? false;
  if (reading.firing && !active) return 'fire';
  if (!reading.firing && active) return 'resolve';
  return 'none';
}
