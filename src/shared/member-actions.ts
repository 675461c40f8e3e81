// Which of the console's member actions apply to a member, and why one does not: the member page
// disables an action with this reason instead of offering a click that can only be refused.
import type { MemberDetail, MemberStatus } from './admin-contract';
import { neverExpires } from './plans';

/** Provider statuses of a subscription that still renews (a paused one included). */
export const RENEWING_STATUSES: ReadonlySet<string> = new Set(['active', 'trialing', 'past_due']);

/** Standings in which the member has access now (past due: the renewal failed, access runs on). */
const WITH_ACCESS: ReadonlySet<MemberStatus> = new Set(['active', 'comp', 'past_due']);

export type MemberActionFacts = {
  hasAccess: boolean;
  isOperator: boolean;
  banned: boolean;
  /** A current TradingView username, or grant rows of an earlier one still to work off. */
  hasUsername: boolean;
  /** A subscription at a payment provider that still renews. */
  renewing: boolean;
  /** Active lifetime access (paid once: nothing renews). */
  lifetime: boolean;
  /** Collection of the renewing plan is paused. */
  paused: boolean;
};

export const MEMBER_ACTIONS = ['retryGrant', 'grantComp', 'revokeAccess', 'freeDays', 'collection', 'ban'] as const;
export type MemberAction = (typeof MEMBER_ACTIONS)[number];

export const OPERATOR_COMP_REFUSED = 'An operator of this shop: complimentary access is for members, an operator opens the console without a plan.';

/** What the member page knows of the member, as the facts the rules ask. */
export function memberActionFacts(member: Pick<MemberDetail, 'account' | 'subscriptions' | 'ban' | 'grants' | 'usernameHistory'>): MemberActionFacts {
  const rows = member.subscriptions;
  const renewing = rows.filter((row) => row.provider !== 'comp' && row.providerSubscriptionId !== null && row.revokedReason === null && RENEWING_STATUSES.has(row.status));
  return {
    hasAccess: WITH_ACCESS.has(member.account.status),
    isOperator: member.account.isOperator,
    banned: member.ban !== null,
    hasUsername: member.grants.length > 0 || member.usernameHistory.some((link) => link.replacedAt === null),
    renewing: renewing.length > 0,
    lifetime: rows.some((row) => neverExpires(row.plan) && row.isActive),
    paused: renewing.some((row) => row.collectionPaused),
  };
}

/** A renewing plan's actions (free days, pause or resume): why the member has none to act on. */
function noRenewingPlan(facts: MemberActionFacts, action: string): string | null {
  if (facts.renewing) return null;
  if (facts.lifetime) return `Lifetime access is paid once and never ends: there is nothing to ${action}.`;
  return `This member has no renewing subscription to ${action}.`;
}

/** Per action, why it does not apply to this member (null: it applies). */
export function memberActionBlocks(facts: MemberActionFacts): Record<MemberAction, string | null> {
  return {
    retryGrant: facts.hasUsername ? null : 'No TradingView username is linked yet: there is no grant to retry.',
    grantComp: facts.isOperator ? OPERATOR_COMP_REFUSED : facts.banned ? 'This member is banned: a ban keeps access off.' : null,
    revokeAccess: facts.hasAccess ? null : 'This member has no access to revoke.',
    freeDays: noRenewingPlan(facts, 'add free days to'),
    collection: noRenewingPlan(facts, facts.paused ? 'resume' : 'pause'),
    ban: facts.banned ? 'This member is banned already.' : facts.isOperator ? 'An operator of this shop: take away their console access before a ban.' : null,
  };
}
