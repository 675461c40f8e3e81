// The console's TradingView page: session health, the grant queue, "retry all failed",
// and the reconciliation of TradingView's lists with who pays. Fixes go through the reconciler's
// own rows (a missing member) or the shop's own access (an unpaid username), never hand-given access.
// An integration page like the communities' (decision 065): its actions are audited through
// the integration's `audit`, and the background session check is read through `lastSessionCheck`.
import type { GrantQueue, GrantQueueItem, Reconciliation, TradingViewHealth } from '@shared/admin-ops-contract';
import { memberTarget, targetOf, targetScripts } from '@shared/tradingview-grants';
import { reconcileTradingView, type PayingMember } from '@shared/tradingview-reconciliation';
import type { Db } from '../../db/client';
import type { OperatorAuditEntry } from '../../integration';
import type { GrantReconciler } from './grant-reconciler';
import { catalogScriptIds, readCatalog } from './script-catalog.repository';
import { toTradingViewError, type TradingViewPort } from './tradingview.port';
import { currentUsernames, findShopAccess, forgetShopAccess, grantsForUser, setGrantTarget, shopUsernames } from './tradingview.repository';
import { membersSubscriptions } from '../entitlements/entitlement-reads';
import { ownersByUsername, ownersOfUsername, queuedGrants, recentlySettledGrants, retryAllFailedGrants, type QueuedGrant } from './tradingview-console.repository';
import { serverError } from '../../http/server-errors';

/** Who did it: the signed-in operator. */
export type Operator = { id: string; email: string };

export type TradingViewConsoleDeps = {
  db: Db;
  port: TradingViewPort;
  reconciler: GrantReconciler;
  /** TRADINGVIEW_SCRIPT_IDS: the initial bundle; the scripts themselves come from the catalog. */
  scriptIds: readonly string[];
  clock: () => Date;
  audit: (entry: OperatorAuditEntry) => Promise<void>;
  /** When the background last checked the session (the operator alerts' check), if ever. */
  lastSessionCheck: () => Promise<Date | null>;
};

const RECENT_GRANTS = 20;

function queueItem(row: QueuedGrant): GrantQueueItem {
  return {
    id: row.id,
    userId: row.userId,
    email: row.email,
    username: row.username,
    desired: row.desired,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt.toISOString(),
    failingSince: row.failingSince?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

const unavailable = (error: unknown) => serverError('tradingViewDidNotAnswer', toTradingViewError(error).message);

/** Members with access now under the same rule the reconciler grants by, their current username and bundle. */
async function payingMembers(db: Db, initialBundle: readonly string[], now: Date): Promise<PayingMember[]> {
  const paying: PayingMember[] = [];
  const catalog = await readCatalog(db, initialBundle);
  const usernames = await currentUsernames(db);
  for (const member of await membersSubscriptions(db)) {
    const username = usernames.get(member.userId) ?? null;
    const target = memberTarget(member.rows, catalog, now);
    if (username && target.desired === 'grant') paying.push({ userId: member.userId, email: member.email, username, bundle: targetScripts(target, initialBundle) });
  }
  return paying;
}

/**
 * An action into the audit log: its target is a TradingView username or a member's e-mail rather
 * than a member id, so it is kept in the details.
 */
function auditOf(audit: TradingViewConsoleDeps['audit']) {
  return ({ operator, action, target, details }: { operator: Operator; action: string; target?: string; details?: Record<string, unknown> }) =>
    audit({ operator: operator.email, action, details: { ...details, ...(target === undefined ? {} : { target }) } });
}

export function createTradingViewConsoleService(deps: TradingViewConsoleDeps) {
  const { db, port, reconciler, scriptIds, clock, lastSessionCheck } = deps;
  const record = auditOf(deps.audit);

  async function health(): Promise<TradingViewHealth> {
    const checkedAt = clock();
    const result = await port.healthCheck();
    const account = await port.currentAccount().then(
      (found) => found.username,
      () => null,
    );
    const scripts = [];
    for (const scriptId of await catalogScriptIds(db, scriptIds)) {
      const users = await port.listUsers(scriptId).then(
        (list) => list.length,
        () => null,
      );
      scripts.push({ scriptId, users });
    }
    const background = await lastSessionCheck();
    return {
      adapter: port.kind,
      account,
      ok: result.ok,
      error: result.ok ? null : `${result.kind}: ${result.message}`,
      checkedAt: checkedAt.toISOString(),
      lastBackgroundCheckAt: background?.toISOString() ?? null,
      scripts,
      outage: port.sandbox ? await port.sandbox.outage() : null,
    };
  }

  async function queue(): Promise<GrantQueue> {
    const pause = reconciler.paused();
    return {
      grants: (await queuedGrants(db)).map(queueItem),
      recent: (await recentlySettledGrants(db, RECENT_GRANTS)).map(queueItem),
      paused: pause && { reason: pause.reason, since: pause.since.toISOString(), until: pause.until?.toISOString() ?? null, detail: pause.detail },
    };
  }

  async function retryAllFailed(operator: Operator): Promise<number> {
    const retried = await retryAllFailedGrants(db, clock());
    reconciler.kick();
    await record({ operator, action: 'tradingview.retry_all_failed', details: { retried } });
    return retried;
  }

  async function reconciliation(): Promise<Reconciliation> {
    const catalog = await catalogScriptIds(db, scriptIds);
    const listed = new Map<string, Set<string>>();
    const shopGiven = new Map<string, Set<string>>();
    try {
      for (const scriptId of catalog) listed.set(scriptId, new Set((await port.listUsers(scriptId)).map((entry) => entry.username.toLowerCase())));
    } catch (error) {
      throw unavailable(error);
    }
    for (const scriptId of catalog) shopGiven.set(scriptId, await shopUsernames(db, scriptId));
    const now = clock();
    const findings = reconcileTradingView({ scriptIds: catalog, listed, shopGiven, paying: await payingMembers(db, scriptIds, now), owners: await ownersByUsername(db) });
    return { checkedAt: now.toISOString(), ...findings };
  }

  /**
   * Removes the access the shop gave to a username on the scripts no paying member's bundle holds
   * for it (hand-given access stays).
   */
  async function revokeUnpaid(username: string, operator: Operator): Promise<string> {
    // Bring the owners' rows up to date first, so the reconciler does not grant it back.
    for (const owner of await ownersOfUsername(db, username)) await reconciler.syncUser(owner.userId);
    const lower = username.toLowerCase();
    const paid = new Set((await payingMembers(db, scriptIds, clock())).filter((member) => member.username.toLowerCase() === lower).flatMap((member) => member.bundle));
    const unpaid = (await catalogScriptIds(db, scriptIds)).filter((scriptId) => !paid.has(scriptId));
    if (paid.size > 0 && unpaid.length === 0) throw serverError('usernameStillPaid', username);
    let revoked = 0;
    for (const scriptId of unpaid) {
      const shop = await findShopAccess(db, scriptId, username);
      if (!shop) continue;
      try {
        if ((await port.revoke(scriptId, username, shop)) === 'revoked') revoked += 1;
      } catch (error) {
        throw unavailable(error);
      }
      await forgetShopAccess(db, scriptId, username);
    }
    await record({ operator, action: 'tradingview.revoke_unpaid', target: username, details: { scripts: revoked } });
    return `Removed ${username} from ${revoked} script${revoked === 1 ? '' : 's'}.`;
  }

  /** Queues the grant of a paying member missing on TradingView for the reconciler, now. */
  async function grantMissing(userId: string, operator: Operator): Promise<string> {
    await reconciler.syncUser(userId);
    const member = (await payingMembers(db, scriptIds, clock())).find((candidate) => candidate.userId === userId);
    if (!member) throw serverError('memberNotPaying');
    const row = (await grantsForUser(db, userId)).find((grant) => grant.username.toLowerCase() === member.username.toLowerCase());
    if (!row) throw serverError('memberWithoutGrant');
    await setGrantTarget(db, row.id, targetOf(row), clock());
    reconciler.kick();
    await record({ operator, action: 'tradingview.grant_missing', target: member.email, details: { username: member.username } });
    return `Queued access for ${member.username}.`;
  }

  return { health, queue, retryAllFailed, reconciliation, revokeUnpaid, grantMissing };
}

export type TradingViewConsoleService = ReturnType<typeof createTradingViewConsoleService>;
