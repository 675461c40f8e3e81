// The entitlements core: the one writer of subscription rows and orders. Every write runs in a
// transaction of the core, which reads the entitlement of each member it is about to touch, reads
// it again before the commit, and records what changed (access-changes.ts names the change) with
// a delivery row per subscriber, in the same transaction. After the commit the deliveries run at
// once; the delivery loop retries whatever failed or was cut off by a crash.
import { accessChangeOf, CALLBACK_OF_KIND, entitlementOf, type AccessChange, type AccessChangeCause, type AccessSubscriber, type Entitlement, type EntitlementRow } from '@shared/access-changes';
import type { RevokedReason } from '@shared/payment-rules';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { advanceExpiryWatch, membersWithExpiryBetween, recordChanges, type NewAccessChange } from './access-changes.repository';
import type { SubscriptionRecord } from './entitlements.repository';
import {
  ensureCheckoutOrder,
  entitlementRowsOf,
  insertCompRow,
  insertOrder,
  linkSessionToUser,
  ownerOfRow,
  ownersOfRows,
  restoreRows,
  revokeRows,
  rowsAroundSubscription,
  setOrderStatus,
  upsertOneTimeRow,
  upsertRecurringRow,
  type ProviderState,
  type RowSelector,
  type WrittenRow,
} from './entitlement-rows';

export type { ProviderState, WrittenRow };

const CAUSE_OF_REVOKE: Record<RevokedReason, AccessChangeCause | null> = {
  refunded: 'refunded',
  disputed: 'disputed',
  operator: 'revoked',
  banned: 'revoked',
  // a duplicate or replaced purchase never leaves the member without the plan they hold
  duplicate: null,
  replaced: null,
};

/** The writes of one transaction of the core; each notes the members it touches before writing. */
export type EntitlementWriter = ReturnType<typeof createWriter>;

type Watching = {
  /** Reads the entitlements of members this transaction is about to touch, unless known already. */
  watch: (userIds: readonly (string | null)[], cause?: AccessChangeCause) => Promise<void>;
  /** Notes a member's entitlement from their rows as this transaction just read them. */
  know: (userId: string, rows: readonly EntitlementRow[]) => void;
};

function createWriter(tx: Db, { watch, know }: Watching) {
  return {
    /** The transaction, for the writes of other tables that belong with these (processed events, mails). */
    tx,
    /** The row tracking a provider subscription (null: none yet), read with its member's other rows, so a write to it reads nothing more. */
    async findRecurringRow(subscriptionId: string): Promise<SubscriptionRecord | null> {
      const rows = await rowsAroundSubscription(tx, subscriptionId);
      const row = rows.find((candidate) => candidate.providerSubscriptionId === subscriptionId) ?? null;
      if (row?.userId) know(row.userId, rows.filter((candidate) => candidate.userId === row.userId));
      return row;
    },
    /** `row`: the subscription's row as this transaction already read it (null: none), which saves reading its owner again. */
    async upsertRecurringRow(subscriptionId: string, state: ProviderState, link: Parameters<typeof upsertRecurringRow>[3], row?: { userId: string | null } | null): Promise<WrittenRow | null> {
      await watch([link.userId, row === undefined ? await ownerOfRow(tx, { subscriptionId }) : (row?.userId ?? null)]);
      return upsertRecurringRow(tx, subscriptionId, state, link);
    },
    async upsertOneTimeRow(checkoutSessionId: string, state: ProviderState, link: Parameters<typeof upsertOneTimeRow>[3]): Promise<string | null> {
      await watch([link.userId, await ownerOfRow(tx, { checkoutSessionId })]);
      return upsertOneTimeRow(tx, checkoutSessionId, state, link);
    },
    async linkSessionToUser(session: Parameters<typeof linkSessionToUser>[1], userId: string): Promise<string[]> {
      await watch([userId]);
      return linkSessionToUser(tx, session, userId);
    },
    /** Takes access from the rows of a payment; answers the members who held them. */
    async revokeRows(rows: RowSelector, reason: RevokedReason): Promise<string[]> {
      const owners = await ownersOfRows(tx, rows);
      await watch(owners, CAUSE_OF_REVOKE[reason] ?? undefined);
      await revokeRows(tx, rows, reason);
      return owners;
    },
    async restoreRows(rows: RowSelector, reason: RevokedReason): Promise<string[]> {
      const owners = await ownersOfRows(tx, rows);
      await watch(owners, 'restored');
      await restoreRows(tx, rows, reason);
      return owners;
    },
    async giveComp(userId: string, until: Date): Promise<void> {
      await watch([userId], 'comp_given');
      await insertCompRow(tx, userId, until);
    },
    // Orders record what was paid; access follows the rows above, so these need no watching.
    ensureCheckoutOrder: (values: Parameters<typeof ensureCheckoutOrder>[1]) => ensureCheckoutOrder(tx, values),
    insertOrder: (values: Parameters<typeof insertOrder>[1]) => insertOrder(tx, values),
    setOrderStatus: (id: string, status: string) => setOrderStatus(tx, id, status),
  };
}

export type EntitlementsDeps = {
  db: Db;
  clock: () => Date;
  logger: Logger;
  subscribers: readonly AccessSubscriber[];
  /** Runs the deliveries of changes just committed, handed over as written (the delivery loop's deliverNow). */
  deliver: (changes: readonly AccessChange[]) => Promise<void>;
};

export function createEntitlements(deps: EntitlementsDeps) {
  const { db, clock, logger, subscribers } = deps;
  const listenersOf = (change: NewAccessChange) => subscribers.filter((subscriber) => subscriber[CALLBACK_OF_KIND[change.kind]]).map((subscriber) => subscriber.name);

  /** The members' entitlements now, from their rows as this transaction sees them. */
  async function entitlementsOf(tx: Db, userIds: readonly string[], at: Date): Promise<Map<string, Entitlement | null>> {
    const rows = await entitlementRowsOf(tx, userIds);
    return new Map(userIds.map((userId) => [userId, entitlementOf(rows.filter((row) => row.userId === userId), at)]));
  }

  /** Names what changed for each member between two readings and records it with its deliveries. */
  async function recordBetween(tx: Db, before: Map<string, Entitlement | null>, after: Map<string, Entitlement | null>, causes: Map<string, AccessChangeCause>, at: Date): Promise<AccessChange[]> {
    const changes: NewAccessChange[] = [];
    for (const [userId, was] of before) {
      const now = after.get(userId) ?? null;
      const kind = accessChangeOf(was, now, causes.get(userId) ?? null);
      const plan = now ?? was;
      if (!kind || !plan) continue;
      changes.push({ userId, kind, planType: plan.planType, previousPlanType: was?.planType ?? null, hasAccess: now !== null, expiresAt: now?.expiresAt ?? null, occurredAt: at });
    }
    return recordChanges(tx, changes, listenersOf);
  }

  async function deliverCommitted(changes: readonly AccessChange[]): Promise<void> {
    if (changes.length === 0) return;
    await deps
      .deliver(changes)
      .catch((error: unknown) => logger.error({ err: error, changeIds: changes.map((change) => change.id) }, 'could not deliver access changes at once; the delivery loop retries'));
  }

  /**
   * Runs `work` in one transaction with the core's writer and records the access changes it made.
   * Answers what `work` answered; the changes are delivered after the commit (a failed delivery
   * is logged and retried by the delivery loop, never undoes the commit).
   */
  async function write<T>(work: (writer: EntitlementWriter) => Promise<T>): Promise<T> {
    const at = clock();
    let committed: AccessChange[] = [];
    const result = await db.transaction(async (tx) => {
      const before = new Map<string, Entitlement | null>();
      const causes = new Map<string, AccessChangeCause>();
      // every write of entitlement rows watches first; without one, this transaction changed no access
      let wrote = false;
      const watch = async (userIds: readonly (string | null)[], cause?: AccessChangeCause) => {
        wrote = true;
        const fresh = [...new Set(userIds.filter((id): id is string => id !== null && !before.has(id)))];
        for (const [userId, entitlement] of await entitlementsOf(tx, fresh, at)) before.set(userId, entitlement);
        if (cause) for (const userId of userIds) if (userId) causes.set(userId, cause);
      };
      const know = (userId: string, rows: readonly EntitlementRow[]) => {
        if (!before.has(userId)) before.set(userId, entitlementOf(rows, at));
      };
      const answer = await work(createWriter(tx, { watch, know }));
      if (wrote) committed = await recordBetween(tx, before, await entitlementsOf(tx, [...before.keys()], at), causes, at);
      return answer;
    });
    await deliverCommitted(committed);
    return result;
  }

  /**
   * Access that ended with time alone (a canceled plan's last day, a comp's end, a past-due
   * grace): no write tells of it, so the delivery loop asks here each pass. One instance sweeps
   * each stretch of time (the watch row is locked and moved on in the same transaction).
   */
  async function recordExpiries(): Promise<number> {
    const now = clock();
    const changes = await db.transaction(async (tx) => {
      const from = await advanceExpiryWatch(tx, now);
      if (!from) return [];
      const members = await membersWithExpiryBetween(tx, from, now);
      if (members.length === 0) return [];
      return recordBetween(tx, await entitlementsOf(tx, members, from), await entitlementsOf(tx, members, now), new Map(), now);
    });
    await deliverCommitted(changes);
    return changes.length;
  }

  return { write, recordExpiries };
}

export type Entitlements = ReturnType<typeof createEntitlements>;
