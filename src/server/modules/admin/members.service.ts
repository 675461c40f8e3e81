import { COMP_PROVIDER, dayKey } from '@shared/admin-reports';
import { MEMBER_ACCESS_HISTORY_SIZE, MEMBERS_PAGE_SIZE, type ActionResult, type MemberDetail, type MemberList, type MemberListQuery } from '@shared/admin-contract';
import type { Db } from '../../db/client';
import type { SessionUser } from '../../http/session-user';
import type { Community } from '../../linked-accounts';
import { banOf } from '../billing/member-bans.repository';
import { changesOfMember } from '../entitlements/access-changes.repository';
import type { Entitlements } from '../entitlements/entitlements';
import type { GrantReconciler } from '../tradingview/grant-reconciler';
import { currentUsername, retryFailedGrantNow, usernameLinks } from '../tradingview/tradingview.repository';
import type { TradingViewService } from '../tradingview/tradingview.service';
import { recordOperatorAction } from './audit.repository';
import {
  findMember,
  grantsOf,
  memberStatusOf,
  ordersOf,
  searchMembers,
  securityEventsOf,
  shopAccessOf,
} from './members.repository';
import { subscriptionsOf, switchedOnRowIds } from '../entitlements/entitlement-reads';
import { serverError } from '../../http/server-errors';
import { readCatalog } from '../tradingview/script-catalog.repository';
import { operatorEmails } from './operator-emails';

const SECURITY_EVENTS_SHOWN = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

export type MembersServiceDeps = {
  db: Db;
  clock: () => Date;
  reconciler: GrantReconciler;
  /** Comp access and revocations are entitlement writes: the core records them and tells TradingView. */
  entitlements: Pick<Entitlements, 'write'>;
  tradingView: TradingViewService;
  /** billing's syncUser: re-reads the member's subscriptions and checkouts from the provider. */
  syncFromProvider: (member: Pick<SessionUser, 'id' | 'email'>) => Promise<boolean>;
  /** TRADINGVIEW_SCRIPT_IDS: the initial bundle; the member page lists every script of the catalog. */
  scriptIds: readonly string[];
  /** ADMIN_EMAILS: with the operators stored in the database, who the member list marks as operators. */
  adminEmails: readonly string[];
  /** The community integrations, whose accounts the member page lists. */
  communities: readonly Community[];
};

/** Where the operator opens a customer: Stripe's dashboard in the key's mode, or the sandbox portal. */
export function customerUrl(row: { provider: string; providerCustomerId: string | null; providerLivemode: boolean | null }): string | null {
  if (!row.providerCustomerId) return null;
  const id = encodeURIComponent(row.providerCustomerId);
  if (row.provider === 'stripe') return row.providerLivemode === true ? `https://dashboard.stripe.com/customers/${id}` : `https://dashboard.stripe.com/test/customers/${id}`;
  if (row.provider === 'sandbox') return `/sandbox/portal/${id}`;
  return null;
}

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The member an action names, or the console's 404 for an id we do not have. */
export async function requireMember(db: Db, userId: string) {
  const member = await findMember(db, userId);
  if (!member) throw serverError('noMember');
  return member;
}

export function createMembersService(deps: MembersServiceDeps) {
  const { db, clock, reconciler, tradingView } = deps;
  const memberOr404 = (userId: string) => requireMember(db, userId);
  /** The member's accounts in each community, the current link first (what they hold by id; names where the integration knows them). */
  const communityAccounts = (userId: string) =>
    Promise.all(
      deps.communities.map(async ({ name, title, links: reads }) => {
        const { accounts, names } = await reads.accountsOf([userId]);
        return {
          name,
          title,
          gives: reads.gives,
          names,
          accounts: accounts.map((account) => ({
            accountId: account.accountId,
            username: account.username,
            current: account.current,
            wanted: account.wanted,
            held: account.held,
            status: account.status,
            attempts: account.attempts,
            lastError: account.lastError,
            nextAttemptAt: iso(account.nextAttemptAt),
            linkedAt: account.linkedAt.toISOString(),
          })),
        };
      }),
    );
  const operatorSet = async () => new Set((await operatorEmails({ db, config: { adminEmails: [...deps.adminEmails] } })).map((email) => email.toLowerCase()));

  return {
    async list(query: MemberListQuery): Promise<MemberList> {
      const { rows, total } = await searchMembers(db, query, MEMBERS_PAGE_SIZE, clock());
      // operators are marked, so their own test purchases and comps are not read as customers'
      const operators = await operatorSet();
      return {
        members: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString(), isOperator: operators.has(row.email.toLowerCase()) })),
        page: query.page,
        pageSize: MEMBERS_PAGE_SIZE,
        total,
      };
    },

    async detail(userId: string): Promise<MemberDetail> {
      const member = await memberOr404(userId);
      const [subscriptions, memberOrders, grants, events, status, username, changes, communities, ban, links, operators] = await Promise.all([
        subscriptionsOf(db, userId),
        ordersOf(db, userId),
        grantsOf(db, userId),
        securityEventsOf(db, userId, SECURITY_EVENTS_SHOWN),
        memberStatusOf(db, userId, clock()),
        currentUsername(db, userId),
        changesOfMember(db, userId, MEMBER_ACCESS_HISTORY_SIZE),
        communityAccounts(userId),
        banOf(db, userId),
        usernameLinks(db, userId),
        operatorSet(),
      ]);
      const shopAccess = await shopAccessOf(db, grants.map((grant) => grant.username));
      const catalog = await readCatalog(db, deps.scriptIds);
      const withCustomer = subscriptions.find((row) => customerUrl(row) !== null);
      return {
        account: { id: member.id, email: member.email, name: member.name, createdAt: member.createdAt.toISOString(), emailVerified: member.emailVerified, status, isOperator: operators.has(member.email.toLowerCase()) },
        subscriptions: subscriptions.map((row) => ({
          id: row.id,
          plan: row.provider === COMP_PROVIDER ? 'comp' : row.planType,
          status: row.status,
          isActive: row.isActive,
          expiresAt: iso(row.expiresAt),
          cancelAtPeriodEnd: row.cancelAtPeriodEnd,
          provider: row.provider,
          providerCustomerId: row.providerCustomerId,
          providerSubscriptionId: row.providerSubscriptionId,
          checkoutSessionId: row.checkoutSessionId,
          revokedReason: row.revokedReason,
          collectionPaused: row.collectionPaused,
          // the member's current name: the username is the member's, no longer a row's
          tradingviewUsername: username,
          createdAt: row.createdAt.toISOString(),
        })),
        orders: memberOrders.map((order) => ({
          id: order.id,
          plan: order.planType,
          amount: order.amount,
          currency: order.currency,
          status: order.status,
          providerPaymentId: order.providerPaymentId,
          checkoutSessionId: order.checkoutSessionId,
          duplicateStatus: order.duplicateStatus,
          createdAt: order.createdAt.toISOString(),
        })),
        grants: grants.map((grant) => ({
          username: grant.username,
          desired: grant.desired,
          status: grant.status,
          expiresAt: iso(grant.desiredExpiresAt),
          attempts: grant.attempts,
          lastError: grant.lastError,
          nextAttemptAt: grant.status === 'failed' || grant.status === 'pending' ? grant.nextAttemptAt.toISOString() : null,
          scripts: catalog.map(({ id: scriptId, name }) => {
            const given = shopAccess.find((row) => row.scriptId === scriptId && row.username === grant.username.toLowerCase());
            return { scriptId, name, granted: given !== undefined, grantedUntil: iso(given?.expiresAt ?? null) };
          }),
        })),
        securityEvents: events.map((event) => ({ id: event.id, event: event.event, count: event.count, ipAddress: event.ipAddress, createdAt: event.createdAt.toISOString() })),
        customerUrl: withCustomer ? customerUrl(withCustomer) : null,
        ban: ban ? { bannedBy: ban.bannedBy, reason: ban.reason, refundedPaymentId: ban.refundedPaymentId, createdAt: ban.createdAt.toISOString() } : null,
        accessHistory: changes.map((change) => ({
          id: change.id,
          kind: change.kind,
          planType: change.planType,
          previousPlanType: change.previousPlanType,
          hasAccess: change.hasAccess,
          expiresAt: iso(change.expiresAt),
          occurredAt: change.occurredAt.toISOString(),
        })),
        communities,
        usernameHistory: links.map((link) => ({
          username: link.username,
          linkedAt: link.linkedAt.toISOString(),
          linkedBy: link.linkedBy,
          replacedAt: iso(link.replacedAt),
          endedBy: link.endedBy,
        })),
      };
    },

    async resync(operator: SessionUser, userId: string): Promise<ActionResult> {
      const member = await memberOr404(userId);
      const complete = await deps.syncFromProvider({ id: member.id, email: member.email });
      await reconciler.syncUser(userId);
      await recordOperatorAction(db, { operator: operator.email, action: 'resync_member', targetUserId: userId, details: { complete } });
      return { message: complete ? 'Synced with the payment provider.' : 'Synced what the payment provider answered; some of it could not be read (see the server log).' };
    },

    async retryGrant(operator: SessionUser, userId: string): Promise<ActionResult> {
      await memberOr404(userId);
      await reconciler.syncUser(userId);
      const now = clock();
      const failed = (await grantsOf(db, userId)).filter((grant) => grant.status === 'failed');
      for (const grant of failed) await retryFailedGrantNow(db, userId, grant.username, now);
      reconciler.kick();
      await recordOperatorAction(db, { operator: operator.email, action: 'retry_grant', targetUserId: userId, details: { usernames: failed.map((grant) => grant.username) } });
      return { message: failed.length ? `Retrying ${failed.map((grant) => grant.username).join(', ')} now.` : 'No failed grant; access was checked again.' };
    },

    /**
     * Moves the member's TradingView access to another username: TradingView must know it, the
     * previous name is kept in the history and its access revoked in the same reconciler pass.
     * A name another member with access holds is refused: moving it is a transfer.
     */
    async correctUsername(operator: SessionUser, userId: string, username: string): Promise<ActionResult> {
      await memberOr404(userId);
      const previous = await currentUsername(db, userId);
      const { verifiedUsername, releasedFrom } = await tradingView.setUsername(userId, username, { by: 'operator' });
      await recordOperatorAction(db, { operator: operator.email, action: 'correct_username', targetUserId: userId, details: { username: verifiedUsername, previous, ...(releasedFrom ? { releasedFrom } : {}) } });
      return { message: `TradingView access moved to ${verifiedUsername}${previous && previous !== verifiedUsername ? `; ${previous}'s access is revoked` : ''}.` };
    },

    /**
     * Moves a username another member holds to this member (decision 048): the holder's link
     * ends as transferred, both members are resynced, and both audit entries name the other.
     * TradingView's access is per account, so it stays while either member's row wants it.
     */
    async transferUsername(operator: SessionUser, userId: string, username: string): Promise<ActionResult> {
      const member = await memberOr404(userId);
      const previous = await currentUsername(db, userId);
      const { verifiedUsername, releasedFrom } = await tradingView.setUsername(userId, username, { by: 'operator', transfer: true });
      const from = releasedFrom ? await findMember(db, releasedFrom) : null;
      await recordOperatorAction(db, {
        operator: operator.email,
        action: 'transfer_username',
        targetUserId: userId,
        details: { username: verifiedUsername, previous, from: from?.email ?? null, fromUserId: releasedFrom },
      });
      if (releasedFrom) {
        await recordOperatorAction(db, {
          operator: operator.email,
          action: 'transfer_username_away',
          targetUserId: releasedFrom,
          details: { username: verifiedUsername, to: member.email, toUserId: userId },
        });
      }
      return {
        message: from
          ? `${verifiedUsername} moved from ${from.email} to ${member.email}; TradingView access follows this member's plan.`
          : `No other member held ${verifiedUsername}; it is now ${member.email}'s.`,
      };
    },

    /** Access until the end of `until` (a UTC day), with no payment. */
    async grantComp(operator: SessionUser, userId: string, until: string): Promise<ActionResult> {
      const member = await memberOr404(userId);
      // comp access is for members: an operator's own "access" would read as a customer's in the reports
      if ((await operatorSet()).has(member.email.toLowerCase())) throw serverError('compForOperator');
      const ends = new Date(new Date(`${until}T00:00:00.000Z`).getTime() + DAY_MS);
      if (ends.getTime() <= clock().getTime()) throw serverError('compEndsInPast');
      await deps.entitlements.write(async (writer) => {
        await writer.giveComp(member.id, ends);
        await recordOperatorAction(writer.tx, { operator: operator.email, action: 'grant_comp', targetUserId: userId, details: { until: dayKey(new Date(ends.getTime() - 1)) } });
      });
      return { message: `Complimentary access until ${until} (end of day, UTC).` };
    },

    async revokeAccess(operator: SessionUser, userId: string): Promise<ActionResult> {
      await memberOr404(userId);
      const rows = await switchedOnRowIds(db, userId);
      await deps.entitlements.write(async (writer) => {
        await writer.revokeRows({ rowIds: rows }, 'operator');
        await recordOperatorAction(writer.tx, { operator: operator.email, action: 'revoke_access', targetUserId: userId, details: { rows: rows.length } });
      });
      return {
        message: rows.length
          ? `Access revoked (${rows.length} subscription${rows.length === 1 ? '' : 's'}). A renewing subscription still renews at the provider: cancel it there.`
          : 'The member had no access to revoke.',
      };
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
