// TradingView access as reconciled state (docs/decisions/008): the pure decisions. What
// TradingView should hold for the username a member uses (from the access rule),
// what the reconciler must change, how long it waits after a failure, and what the member reads.
import { z } from 'zod';
import { accessUntil, grantsAccess } from './access';
import type { SubscriptionRow } from './access';
import type { PlanType } from './plans';
import { scriptsOfPlans, type CatalogScript } from './script-catalog';

/** What a grant row asks TradingView to hold for its username. */
export type GrantDesired = 'grant' | 'revoke';

/**
 * Where a grant row stands. `processing` is internal: a reconciler has leased the row and is
 * talking to TradingView; members see it as pending.
 */
export const GRANT_STATUSES = ['pending', 'processing', 'granted', 'revoked', 'failed'] as const;
export type GrantStatus = (typeof GRANT_STATUSES)[number];

/** Failures a TradingView adapter reports; stored as the prefix of last_error. */
export const TRADINGVIEW_ERROR_KINDS = ['session_expired', 'not_found', 'network', 'unexpected'] as const;
export type TradingViewErrorKind = (typeof TRADINGVIEW_ERROR_KINDS)[number];

/** Whether a member's subscriptions give access now, and until when; `expiresAt: null` means no expiry. */
export type AccessTarget = { desired: 'grant'; expiresAt: Date | null } | { desired: 'revoke' };

/**
 * The desired TradingView state for one username: access until `expiresAt` to `scripts` (sorted;
 * null on rows written before bundles, which stands for the TRADINGVIEW_SCRIPT_IDS bundle), and
 * none to any other script of the catalog.
 */
export type GrantTarget = { desired: 'grant'; expiresAt: Date | null; scripts: readonly string[] | null } | { desired: 'revoke' };

/** The fields of a subscription row that decide TradingView access (the access rule's). */
export type SubscriptionAccessRow = Pick<SubscriptionRow, 'planType' | 'isActive' | 'expiresAt'>;

/**
 * What a member's grants are decided from: the TradingView username they use now (kept by the
 * TradingView module apart from billing, null before they give one) and their subscriptions.
 */
export type MemberAccess = { username: string | null; subscriptions: readonly SubscriptionAccessRow[] };

/** The plans among `rows` that give access now (the access rule's). */
export function grantingPlans(rows: readonly SubscriptionAccessRow[], now: Date): Set<PlanType> {
  return new Set(rows.filter((row) => grantsAccess(row, now)).map((row) => row.planType));
}

/**
 * What TradingView should hold while these subscriptions exist: access as long as the longest
 * row that grants access under the spec's rule (the same rule as SQL user_has_premium_access).
 * Lifetime, and a recurring row whose expiry is not known yet, give access with no expiry.
 */
export function desiredGrant(rows: readonly SubscriptionAccessRow[], now: Date): AccessTarget {
  let granting = false;
  let latest: Date | null = null;
  for (const row of rows) {
    if (!grantsAccess(row, now)) continue;
    const expiry = accessUntil(row);
    if (expiry === null) return { desired: 'grant', expiresAt: null };
    granting = true;
    if (!latest || expiry.getTime() > latest.getTime()) latest = expiry;
  }
  return granting ? { desired: 'grant', expiresAt: latest } : { desired: 'revoke' };
}

export function sameExpiry(a: Date | null, b: Date | null): boolean {
  if (a === null || b === null) return a === b;
  return a.getTime() === b.getTime();
}

function sameScripts(a: readonly string[] | null, b: readonly string[] | null): boolean {
  if (a === null || b === null) return a === b;
  return a.length === b.length && a.every((script, index) => script === b[index]);
}

export function sameTarget(a: GrantTarget, b: GrantTarget): boolean {
  if (a.desired === 'revoke' || b.desired === 'revoke') return a.desired === b.desired;
  return sameExpiry(a.expiresAt, b.expiresAt) && sameScripts(a.scripts, b.scripts);
}

/** A target's scripts, with rows from before bundles read as the TRADINGVIEW_SCRIPT_IDS bundle. */
export function targetScripts(target: GrantTarget, initialBundle: readonly string[]): readonly string[] {
  if (target.desired === 'revoke') return [];
  return target.scripts ?? initialBundle;
}

export type ExistingGrant = {
  id: string;
  username: string;
  desired: GrantDesired;
  desiredExpiresAt: Date | null;
  desiredScripts: readonly string[] | null;
};

export type GrantChange =
  | { kind: 'create'; username: string; target: GrantTarget }
  | { kind: 'update'; id: string; username: string; target: GrantTarget };

export function targetOf(grant: Pick<ExistingGrant, 'desired' | 'desiredExpiresAt' | 'desiredScripts'>): GrantTarget {
  return grant.desired === 'grant' ? { desired: 'grant', expiresAt: grant.desiredExpiresAt, scripts: grant.desiredScripts } : { desired: 'revoke' };
}

/**
 * The changes that bring a member's grant rows to the wanted state: the current username gets
 * `target`; every other username the member used before is revoked (a corrected username must
 * not keep the old account's access). No row is created just to revoke a name never granted.
 */
export function planGrantChanges(
  existing: readonly ExistingGrant[],
  username: string | null,
  target: GrantTarget,
): GrantChange[] {
  const changes: GrantChange[] = [];
  let current: ExistingGrant | undefined;
  for (const grant of existing) {
    if (username !== null && grant.username === username) {
      current = grant;
      continue;
    }
    if (grant.desired !== 'revoke') changes.push({ kind: 'update', id: grant.id, username: grant.username, target: { desired: 'revoke' } });
  }
  if (username === null) return changes;
  if (current) {
    if (!sameTarget(targetOf(current), target)) changes.push({ kind: 'update', id: current.id, username, target });
  } else if (target.desired === 'grant') {
    changes.push({ kind: 'create', username, target });
  }
  return changes;
}

/**
 * What to apply on TradingView for one username when several accounts point at it: access is
 * per TradingView account, so it is kept while any of them wants it, until the latest expiry, to
 * every script any of them is granted. Without this, one member's refund or shorter plan would
 * cut another member's paid access. Scripts come resolved (`targetScripts`).
 */
export function effectiveTarget(own: GrantTarget, others: readonly GrantTarget[], initialBundle: readonly string[]): GrantTarget {
  let result: GrantTarget = own.desired === 'grant' ? { ...own, scripts: targetScripts(own, initialBundle) } : own;
  for (const other of others) {
    if (other.desired === 'revoke') continue;
    const scripts = targetScripts(other, initialBundle);
    if (result.desired === 'revoke') {
      result = { ...other, scripts };
      continue;
    }
    const expiresAt =
      result.expiresAt === null || other.expiresAt === null ? null : new Date(Math.max(result.expiresAt.getTime(), other.expiresAt.getTime()));
    result = { desired: 'grant', expiresAt, scripts: [...new Set([...(result.scripts ?? []), ...scripts])].sort() };
  }
  return result;
}

/**
 * What TradingView should hold for a member: access as `desiredGrant` says, to the scripts of the
 * plans that give access now (a plan change moves exactly the difference between two bundles).
 */
export function memberTarget(subscriptions: readonly SubscriptionAccessRow[], catalog: readonly CatalogScript[], now: Date): GrantTarget {
  const access = desiredGrant(subscriptions, now);
  if (access.desired === 'revoke') return access;
  return { ...access, scripts: scriptsOfPlans(catalog, grantingPlans(subscriptions, now)) };
}

/**
 * One sync of a member: the current username gets what their subscriptions allow, and every
 * other name they used before is revoked in the same set of changes, so a changed username never
 * leaves the old name with access while the new one is granted.
 */
export function memberGrantChanges(existing: readonly ExistingGrant[], member: MemberAccess, catalog: readonly CatalogScript[], now: Date): GrantChange[] {
  return planGrantChanges(existing, member.username, memberTarget(member.subscriptions, catalog, now));
}

export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_MS = 60 * 60_000;

/** Wait before the next try after `failures` consecutive failures: 30 s × 2^(failures−1), at most 1 h. */
export function retryDelayMs(failures: number): number {
  if (failures <= 0) return 0;
  // The cap is reached at 8 failures; capping the exponent keeps huge counts finite.
  return Math.min(RETRY_BASE_MS * 2 ** Math.min(failures - 1, 30), RETRY_MAX_MS);
}

export function formatGrantError(kind: TradingViewErrorKind, message: string): string {
  return `${kind}: ${message}`.slice(0, 500);
}

export function grantErrorKind(lastError: string | null): TradingViewErrorKind | null {
  if (!lastError) return null;
  const prefix = lastError.split(':', 1)[0] ?? '';
  return (TRADINGVIEW_ERROR_KINDS as readonly string[]).includes(prefix) ? (prefix as TradingViewErrorKind) : null;
}

// ---------------------------------------------------------------- what the member sees

export const MEMBER_GRANT_STATUSES = ['none', 'pending', 'granted', 'failed', 'revoked'] as const;
export type MemberGrantStatus = (typeof MEMBER_GRANT_STATUSES)[number];

/** Transient failures show as pending until this many tries failed in a row (about 3.5 min). */
export const FAILURES_BEFORE_SHOWN = 3;

export const GRANT_STATUS_TEXTS = {
  none: 'Add your TradingView username so we can give you access to the indicators.',
  pending: 'We are granting access to your TradingView account. This usually takes a few minutes.',
  granted: 'In TradingView, open a chart, then Indicators → Invite-only scripts.',
  failedUsername:
    'TradingView did not accept this username. Please check it and correct it if needed.',
  failed:
    'We could not grant access yet and keep retrying automatically. If your indicators do not appear within a few hours, please contact support.',
  revoked: 'Your TradingView access has ended because your subscription is no longer active.',
} as const;

export type GrantRowView = {
  desired: GrantDesired;
  status: GrantStatus;
  attempts: number;
  lastError: string | null;
};

/** The member-facing state of the grant for their current username (null: no row yet). */
export function memberGrantStatus(
  username: string | null,
  grant: GrantRowView | null,
): { status: MemberGrantStatus; message: string } {
  if (!username) return { status: 'none', message: GRANT_STATUS_TEXTS.none };
  if (!grant) return { status: 'pending', message: GRANT_STATUS_TEXTS.pending };
  if (grant.desired === 'revoke') return { status: 'revoked', message: GRANT_STATUS_TEXTS.revoked };
  if (grant.status === 'granted') return { status: 'granted', message: GRANT_STATUS_TEXTS.granted };
  const kind = grantErrorKind(grant.lastError);
  if (grant.attempts > 0 && kind === 'not_found') return { status: 'failed', message: GRANT_STATUS_TEXTS.failedUsername };
  if (grant.attempts >= FAILURES_BEFORE_SHOWN) return { status: 'failed', message: GRANT_STATUS_TEXTS.failed };
  return { status: 'pending', message: GRANT_STATUS_TEXTS.pending };
}

/**
 * What the member's access holds, in words: the scripts by their names (never their PUB; ids),
 * "3 scripts: A, B and C".
 */
export function grantedScriptsText(names: readonly string[]): string {
  if (names.length === 0) return 'no scripts';
  const list = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`;
  return `${names.length} script${names.length === 1 ? '' : 's'}: ${list}`;
}

/** Where the member stands, as the dashboard and Settings tell it: a title, the details, what to do. */
export type MemberDelivery = {
  status: MemberGrantStatus;
  tone: 'green' | 'yellow' | 'red' | 'neutral';
  title: string;
  detail: string;
  /** add / correct: the username (Settings); support: write to support; null: nothing to do. */
  action: 'add' | 'correct' | 'support' | null;
};

export const DELIVERY_TITLES: Record<MemberGrantStatus, string> = {
  none: 'Add your TradingView username',
  pending: 'Access pending',
  granted: 'Access granted',
  failed: 'Access failed',
  revoked: 'Access ended',
};

/**
 * The member's TradingView access now, in words: pending (the scripts being granted), granted N
 * scripts (by name), or failed with the reason and what to do. "Access granted" is the title only;
 * the details never repeat it.
 */
export function memberDelivery(view: { status: MemberGrantStatus; message: string; username: string | null; scripts: readonly { name: string }[] }): MemberDelivery {
  const names = view.scripts.map((script) => script.name);
  const on = view.username ? ` on ${view.username}` : '';
  const base = { status: view.status, title: DELIVERY_TITLES[view.status] };
  switch (view.status) {
    case 'none':
      return { ...base, tone: 'yellow', detail: view.message, action: 'add' };
    case 'pending':
      return {
        ...base,
        tone: 'yellow',
        detail: names.length ? `Granting ${grantedScriptsText(names)}${on}. This usually takes a few minutes.` : view.message,
        action: null,
      };
    case 'granted':
      return { ...base, tone: 'green', detail: names.length ? `${capitalise(grantedScriptsText(names))}${on}. ${view.message}` : view.message, action: null };
    case 'failed':
      return { ...base, tone: 'red', detail: view.message, action: view.message === GRANT_STATUS_TEXTS.failedUsername ? 'correct' : 'support' };
    case 'revoked':
      return { ...base, tone: 'neutral', detail: view.message, action: null };
  }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

// ---------------------------------------------------------------- API shapes

export const TRADINGVIEW_API_PATHS = {
  activate: '/api/tradingview/activate',
  status: '/api/tradingview/status',
  username: '/api/tradingview/username',
} as const;

export const tradingviewStatusResponseSchema = z.object({
  username: z.string().nullable(),
  status: z.enum(MEMBER_GRANT_STATUSES),
  message: z.string(),
  /** When TradingView access ends; null with status granted means no expiry (lifetime). */
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
  /** The invite-only scripts the access gives (granted) or is giving (pending, failed), by name. */
  scripts: z.array(z.object({ id: z.string(), name: z.string() })),
  /** When the member may change their username themselves again; null: now. */
  nextChangeAt: z.iso.datetime({ offset: true }).nullable(),
  /** TRADINGVIEW_USERNAME_CHANGE_DAYS: one change of their own per this many days (0: any time). */
  changeDays: z.number().int().min(0),
});
export type TradingviewStatusResponse = z.infer<typeof tradingviewStatusResponseSchema>;
