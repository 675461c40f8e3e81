// When a buyer who left a checkout hears from the shop, and what their link does later.

/** At most one recovery mail per e-mail address in this many days. */
export const RECOVERY_MAIL_INTERVAL_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export type RecoveryFacts = {
  /** The abandoned checkout's e-mail (null: the buyer never gave one). */
  email: string | null;
  /** The checkout was paid after all (or was never unpaid). */
  paid: boolean;
  /** The address asked for no more such mails. */
  optedOut: boolean;
  /** The newest recovery mail to this address. */
  lastMailAt: Date | null;
  /** The address paid another checkout since this one was started. */
  boughtSince: boolean;
};

export type RecoveryDecision = 'send' | 'no_email' | 'paid' | 'opted_out' | 'mailed_recently' | 'bought_since';

/** Whether an abandoned checkout gets its recovery mail now, or why not. */
export function recoveryDecision(facts: RecoveryFacts, now: Date): RecoveryDecision {
  if (!facts.email) return 'no_email';
  if (facts.paid) return 'paid';
  if (facts.optedOut) return 'opted_out';
  if (facts.boughtSince) return 'bought_since';
  if (facts.lastMailAt && now.getTime() - facts.lastMailAt.getTime() < RECOVERY_MAIL_INTERVAL_DAYS * DAY_MS) return 'mailed_recently';
  return 'send';
}

/** What opening a recovery link comes to. */
export type RecoveryLinkOutcome = { kind: 'resume'; url: string } | { kind: 'purchased' } | { kind: 'gone' } | { kind: 'unknown' };

/** A recovery token as mailed: 32 random bytes, base64url. */
export const RECOVERY_TOKEN = /^[A-Za-z0-9_-]{43}$/;
