// The entitlements core: the one writer of subscription rows and orders. Every write runs in a
// transaction of the core, which reads the entitlement of each member it is about to touch, reads
// it again before the commit, and records what changed (access-changes.ts names the change) with
// a delivery row per subscriber, in the same transaction. After the commit the deliveries run at
// once; the delivery loop retries whatever failed or was cut off by a crash, and asks the core
// for what time alone changes (access that ended, the notice that a canceled row ends soon).
import {
  accessChangeOf,
  accessRowOf,
  CALLBACK_OF_KIND,
  ENDING_NOTICE_MS,
  entitlementOfRow,
  rowFacts,
  rowsEndingSoon,
  type AccessChange,
  type AccessChangeCause,
  type AccessSubscriber,
} from '@shared/access-changes';
import type { RevokedReason } from '@shared/payment-rules';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { advanceExpiryWatch, canceledRowsEndingBy, lastRecordedAccess, periodEndsBetween, recordChanges, type HeldRow, type NewAccessChange } from './access-changes.repository';
import type { SubscriptionRecord } from './entitlements.repository';
import {
  ensureCheckoutOrder,
  entitlementRowsOf,
  insertCompRow,
  insertOrderOfPayment,
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
  know: (userId: string, rows: readonly HeldRow[]) => void;
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
    insertOrderOfPayment: (values: Parameters<typeof insertOrderOfPayment>[1]) => insertOrderOfPayment(tx, values),
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
  const listenersOf = (kind: AccessChange['kind']) => subscribers.filter((subscriber) => subscriber[CALLBACK_OF_KIND[kind]]).map((subscriber) => subscriber.name);

  /** Each member's rows as this transaction sees them. */
  async function rowsOfMembers(tx: Db, userIds: readonly string[]): Promise<Map<string, HeldRow[]>> {
    const rows = await entitlementRowsOf(tx, userIds);
    return new Map(userIds.map((userId) => [userId, rows.filter((row) => row.userId === userId)]));
  }

  /**
   * Names what changed for each member between the row that carried their access before (null:
   * none) and their rows after, and records it with its deliveries. A change names the row that
   * carries access after it, or the one that carried it before, as that row stands now.
   */
  async function recordBetween(tx: Db, before: Map<string, HeldRow | null>, after: Map<string, HeldRow[]>, causes: Map<string, AccessChangeCause>, at: Date): Promise<AccessChange[]> {
    const changes: NewAccessChange[] = [];
    for (const [userId, was] of before) {
      const rows = after.get(userId) ?? [];
      const now = accessRowOf(rows, at);
      const kind = accessChangeOf(was && entitlementOfRow(was), now && entitlementOfRow(now), causes.get(userId) ?? null);
      const plan = now ?? was;
      if (!kind || !plan) continue;
      const row = now ?? rows.find((candidate) => candidate.id === was!.id) ?? was!;
      changes.push({ userId, kind, planType: plan.planType, previousPlanType: was?.planType ?? null, hasAccess: now !== null, expiresAt: now?.expiresAt ?? null, occurredAt: at, ...rowFacts(row) });
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
      const before = new Map<string, HeldRow | null>();
      const causes = new Map<string, AccessChangeCause>();
      // every write of entitlement rows watches first; without one, this transaction changed no access
      let wrote = false;
      const watch = async (userIds: readonly (string | null)[], cause?: AccessChangeCause) => {
        wrote = true;
        const fresh = [...new Set(userIds.filter((id): id is string => id !== null && !before.has(id)))];
        for (const [userId, rows] of await rowsOfMembers(tx, fresh)) before.set(userId, accessRowOf(rows, at));
        if (cause) for (const userId of userIds) if (userId) causes.set(userId, cause);
      };
      const know = (userId: string, rows: readonly HeldRow[]) => {
        if (!before.has(userId)) before.set(userId, accessRowOf(rows, at));
      };
      const answer = await work(createWriter(tx, { watch, know }));
      if (wrote) committed = await recordBetween(tx, before, await rowsOfMembers(tx, [...before.keys()]), causes, at);
      return answer;
    });
    await deliverCommitted(committed);
    return result;
  }

  /**
   * `ended` for members whose access ran out with time in (from, now]: a row's period ended in
   * the stretch, they have no access now, and their last recorded change left them with access
   * (none recorded: rows written before changes were). The history rather than the rows at `from`
   * says whether they had access: the provider may have switched the row off since its period
   * ended (its deletion event), and a stretch swept twice finds the `ended` already written.
   */
  async function endedBetween(tx: Db, from: Date, now: Date): Promise<NewAccessChange[]> {
    const ending = await periodEndsBetween(tx, from, now);
    const userIds = [...new Set(ending.flatMap((row) => (row.userId ? [row.userId] : [])))];
    if (userIds.length === 0) return [];
    const rows = await rowsOfMembers(tx, userIds);
    const hadAccess = await lastRecordedAccess(tx, userIds);
    const changes: NewAccessChange[] = [];
    for (const userId of userIds) {
      if (accessRowOf(rows.get(userId) ?? [], now) || hadAccess.get(userId) === false) continue;
      // the row whose access ended: of those ending in the stretch, the one that lasted longest, read as it stood before (switched on)
      const own = ending.filter((row) => row.userId === userId);
      const was = accessRowOf(own.map((row) => ({ ...row, isActive: true })), from);
      const row = own.find((candidate) => candidate.id === was?.id);
      if (!row) continue;
      changes.push({ userId, kind: 'ended', planType: row.planType, previousPlanType: row.planType, hasAccess: false, expiresAt: null, occurredAt: now, ...rowFacts(row) });
    }
    return changes;
  }

  /** `ending_soon` for each canceled row whose last ENDING_NOTICE_MS began by `now` and that none names yet. */
  async function endingSoon(tx: Db, now: Date): Promise<NewAccessChange[]> {
    const rows = rowsEndingSoon(await canceledRowsEndingBy(tx, now, new Date(now.getTime() + ENDING_NOTICE_MS)), now);
    return rows.flatMap((row) =>
      row.userId ? [{ userId: row.userId, kind: 'ending_soon' as const, planType: row.planType, previousPlanType: row.planType, hasAccess: true, expiresAt: row.expiresAt, occurredAt: now, ...rowFacts(row) }] : [],
    );
  }

  /**
   * What time alone changes, which no write tells of: access that ended (a canceled plan's last
   * day, a comp's end, a past-due grace, a renewal that is late) and the last days of a canceled
   * row beginning. The delivery loop asks here each pass; one instance at a time (the watch row
   * is locked and moved on in the same transaction). After a stop the watch goes on from where it
   * stood, so the ends in between are recorded then; a notice is due while its row still grants
   * access, so the notices missed come with the first pass.
   */
  async function recordExpiries(): Promise<number> {
    const now = clock();
    const changes = await db.transaction(async (tx) => {
      const from = await advanceExpiryWatch(tx, now);
      const ended = from ? await endedBetween(tx, from, now) : [];
      return recordChanges(tx, [...ended, ...(await endingSoon(tx, now))], listenersOf);
    });
    await deliverCommitted(changes);
    return changes.length;
  }

  return { write, recordExpiries };
}

export type Entitlements = ReturnType<typeof createEntitlements>;
