// Operator alerts: which conditions warn the operators, what each says, and the pure
// decision of what a check changes. The server measures the facts; this file decides.

export const OPERATOR_ALERT_KEYS = ['tradingview_session', 'grant_failing', 'webhook_signature', 'renewal_failed'] as const;
export type OperatorAlertKey = (typeof OPERATOR_ALERT_KEYS)[number];

/** A grant failing this long means buyers wait for access: the operators are told. */
export const GRANT_FAILING_ALERT_MS = 15 * 60_000;
/**
 * Bad webhook signatures within this window, at least this many, count as "repeatedly". They are
 * counted per instance, in memory (a forger must not make the shop write a row per request).
 */
export const SIGNATURE_FAILURE_WINDOW_MS = 15 * 60_000;
export const SIGNATURE_FAILURE_THRESHOLD = 3;
/**
 * How long an alert that an instance confirmed stays on while others, which cannot see what that
 * instance counted, read it as clear: a few of the once-a-minute checks, so it still ends soon
 * after the last instance that saw it stops confirming it (or stops running).
 */
export const LOCAL_ALERT_HOLD_MS = 3 * 60_000;

export const OPERATOR_ALERT_TITLES: Record<OperatorAlertKey, string> = {
  tradingview_session: 'The TradingView session stopped working',
  grant_failing: 'TradingView grants have been failing for more than 15 minutes',
  webhook_signature: 'Webhook deliveries keep failing their signature check',
  renewal_failed: 'A renewal payment failed',
};

/**
 * What one check measured for an alert: whether its condition holds, and what to tell. A `local`
 * reading saw only this instance's facts (refused webhook signatures).
 */
export type AlertReading = { key: OperatorAlertKey; firing: boolean; detail: string | null; local?: boolean };

/** The stored state of an alert before the check; while it is on, checkedAt is when a check last found it holding. */
export type AlertState = { key: OperatorAlertKey; active: boolean; checkedAt?: Date | null };

/** `hold`: leave the alert as it is, without noting the check (another instance holds it on). */
export type AlertTransition = 'fire' | 'resolve' | 'none' | 'hold';

/**
 * A condition that starts fires the alert, one that ends resolves it; anything else changes
 * nothing. A local reading that finds it clear leaves on an alert confirmed within LOCAL_ALERT_HOLD_MS.
 */
export function alertTransition(state: AlertState | null, reading: AlertReading, now: Date): AlertTransition {
  const active = state?.active ?? false;
  if (reading.firing && !active) return 'fire';
  if (!reading.firing && active) {
    const confirmedAt = state?.checkedAt?.getTime();
    const recentlyConfirmed = confirmedAt !== undefined && now.getTime() - confirmedAt < LOCAL_ALERT_HOLD_MS;
    return reading.local && recentlyConfirmed ? 'hold' : 'resolve';
  }
  return 'none';
}
