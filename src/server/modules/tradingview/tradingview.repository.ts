import { and, asc, desc, eq, gt, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { CatalogScript } from '@shared/script-catalog';
import { sameTarget, targetOf, type ExistingGrant, type GrantDesired, type GrantStatus, type GrantTarget, type MemberAccess, type SubscriptionAccessRow } from '@shared/tradingview-grants';
import type { Db } from '../../db/client';
import { preparedPerDb } from '../../db/prepared';
import { dateOrNull } from '../../db/query';
import { sandboxTradingviewAccess, tradingviewGrants, tradingviewShopAccess, tradingviewUsernames, user } from '../../db/schema';
import { accessRowsFromJson, accessRowsJson, accessRowsOfMembers, memberHasAccessAt } from '../entitlements/entitlement-reads';
import { queueAccessActiveMail } from '../mail/lifecycle-mails';
import { catalogFromJson, catalogJson, scriptNames } from './script-catalog.repository';
import type { ScriptAccess, ShopAccess } from './tradingview.port';

type StoredGrant = typeof tradingviewGrants.$inferSelect;
// The columns are text in SQL; only this module writes them, always with these values.
export type GrantRow = Omit<StoredGrant, 'desired' | 'status'> & { desired: GrantDesired; status: GrantStatus };
const asGrant = (row: StoredGrant): GrantRow => row as GrantRow;

// Rows the reconciler still has to work on; granted and revoked rows wait for a new target.
const OPEN_STATUSES = ['pending', 'processing', 'failed'];

const sameUsername = (column: typeof tradingviewGrants.username | typeof sandboxTradingviewAccess.username | typeof tradingviewUsernames.username, username: string) =>
  sql`lower(${column}) = lower(${username})`;

// ---------------------------------------------------------------- usernames

const currentUsernameOf = preparedPerDb((db) =>
  db
    .select({ username: tradingviewUsernames.username })
    .from(tradingviewUsernames)
    .where(and(eq(tradingviewUsernames.userId, sql.placeholder('userId')), isNull(tradingviewUsernames.replacedAt)))
    .limit(1)
    .prepare('tradingview_current_username'),
);

/** The TradingView username the member uses now; null before they gave one. */
export async function currentUsername(db: Db, userId: string): Promise<string | null> {
  const [row] = await currentUsernameOf(db).execute({ userId });
  return row?.username ?? null;
}

/** Every member's current username, by user id (the console's reconciliation report). */
export async function currentUsernames(db: Db): Promise<Map<string, string>> {
  const rows = await db
    .select({ userId: tradingviewUsernames.userId, username: tradingviewUsernames.username })
    .from(tradingviewUsernames)
    .where(isNull(tradingviewUsernames.replacedAt));
  return new Map(rows.map((row) => [row.userId, row.username]));
}

export type LinkedUsername = {
  changed: boolean;
  previous: string | null;
  /** The member the name was taken from (a transfer, or a holder whose access had lapsed); absent: nobody. */
  releasedFrom?: string;
};

/** Who links a name: the member, an operator's correction, an operator's transfer, an import. */
export type UsernameLinkedBy = 'member' | 'operator' | 'transfer' | 'import';
/** Why a link stopped being current (see decision 048). */
export type UsernameEndedBy = 'member' | 'operator' | 'transfer' | 'claimed' | 'duplicate' | 'import';

/** Another member with access holds this name: the claim is refused (decision 048). */
export class UsernameTakenError extends Error {
  constructor(readonly username: string) {
    super(`the TradingView username ${username} is held by another member`);
    this.name = 'UsernameTakenError';
  }
}

// Postgres unique_violation, as pg and PGlite report it (possibly wrapped by drizzle).
function isUniqueViolation(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth += 1) {
    if (typeof current === 'object' && (current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}


export type LinkOptions = {
  by?: UsernameLinkedBy;
  /** An operator's transfer: the name moves from whoever holds it, with access or not. */
  transfer?: boolean;
  /**
   * A member's own change: when they may change their name next, from their links (read under
   * their lock, so two changes at once cannot both pass); a date throws UsernameChangeTooSoonError.
   */
  nextChangeAt?: (links: UsernameLink[]) => Date | null;
};

/** The member changed their own name too recently (the cooldown), until `nextChangeAt`. */
export class UsernameChangeTooSoonError extends Error {
  constructor(readonly nextChangeAt: Date) {
    super(`the TradingView username may change again at ${nextChangeAt.toISOString()}`);
    this.name = 'UsernameChangeTooSoonError';
  }
}

/**
 * Makes `username` the member's current TradingView username, in one transaction under the
 * member's row lock: the current name is marked replaced at `now` and the new one added. The same
 * name again (in any case) changes nothing and keeps the stored spelling. The old name's access
 * is the reconciler's to revoke (its next sync of the member).
 *
 * A name is held by one member at a time (decision 048): held by another member with access, the
 * claim throws UsernameTakenError (unless `transfer`); held by a member whose access has lapsed,
 * it is released from them. The unique index on current names settles two claims at once: the
 * second meets a unique violation, thrown as UsernameTakenError.
 */
export async function linkUsername(db: Db, userId: string, username: string, now: Date, options: LinkOptions = {}): Promise<LinkedUsername> {
  const by = options.by ?? 'member';
  try {
    return await db.transaction(async (tx) => {
      const locked = await lockMember(tx, userId);
      if (!locked) throw new Error(`linkUsername: no user ${userId}`);
      const previous = locked.username;
      if (previous !== null && previous.toLowerCase() === username.toLowerCase()) return { changed: false, previous };
      if (previous !== null && options.nextChangeAt) {
        const next = options.nextChangeAt(await usernameLinks(tx, userId));
        if (next) throw new UsernameChangeTooSoonError(next);
      }
      const [holder] = await tx
        .select({ id: tradingviewUsernames.id, userId: tradingviewUsernames.userId, hasAccess: memberHasAccessAt(sql`${tradingviewUsernames.userId}`, now) })
        .from(tradingviewUsernames)
        .where(and(sameUsername(tradingviewUsernames.username, username), isNull(tradingviewUsernames.replacedAt), ne(tradingviewUsernames.userId, userId)))
        .for('update');
      if (holder) {
        if (holder.hasAccess && !options.transfer) throw new UsernameTakenError(username);
        await tx
          .update(tradingviewUsernames)
          .set({ replacedAt: now, endedBy: options.transfer ? 'transfer' : 'claimed' })
          .where(eq(tradingviewUsernames.id, holder.id));
      }
      if (previous !== null) {
        await tx
          .update(tradingviewUsernames)
          .set({ replacedAt: now, endedBy: by === 'transfer' ? 'operator' : by })
          .where(and(eq(tradingviewUsernames.userId, userId), isNull(tradingviewUsernames.replacedAt)));
      }
      await tx.insert(tradingviewUsernames).values({ userId, username, linkedAt: now, linkedBy: by });
      return holder ? { changed: true, previous, releasedFrom: holder.userId } : { changed: true, previous };
    });
  } catch (error) {
    if (!(error instanceof UsernameTakenError) && isUniqueViolation(error)) throw new UsernameTakenError(username);
    throw error;
  }
}

/** The member who holds `username` now (any case), or null. */
export async function holderOf(db: Db, username: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: tradingviewUsernames.userId })
    .from(tradingviewUsernames)
    .where(and(sameUsername(tradingviewUsernames.username, username), isNull(tradingviewUsernames.replacedAt)))
    .limit(1);
  return row?.userId ?? null;
}

export type UsernameHistoryEntry = { username: string; linkedAt: Date; replacedAt: Date | null };

/** Every username the member linked: the current one first, then the others, latest replaced first. */
export async function usernameHistory(db: Db, userId: string): Promise<UsernameHistoryEntry[]> {
  return db
    .select({ username: tradingviewUsernames.username, linkedAt: tradingviewUsernames.linkedAt, replacedAt: tradingviewUsernames.replacedAt })
    .from(tradingviewUsernames)
    .where(eq(tradingviewUsernames.userId, userId))
    .orderBy(sql`${tradingviewUsernames.replacedAt} DESC NULLS FIRST`, desc(tradingviewUsernames.linkedAt));
}

export type UsernameLink = UsernameHistoryEntry & { linkedBy: string; endedBy: string | null };

/** The history with who linked each name and why it ended (the console's member page, the cooldown). */
export async function usernameLinks(db: Db, userId: string): Promise<UsernameLink[]> {
  return db
    .select({
      username: tradingviewUsernames.username,
      linkedAt: tradingviewUsernames.linkedAt,
      replacedAt: tradingviewUsernames.replacedAt,
      linkedBy: tradingviewUsernames.linkedBy,
      endedBy: tradingviewUsernames.endedBy,
    })
    .from(tradingviewUsernames)
    .where(eq(tradingviewUsernames.userId, userId))
    .orderBy(sql`${tradingviewUsernames.replacedAt} DESC NULLS FIRST`, desc(tradingviewUsernames.linkedAt));
}

// ---------------------------------------------------------------- grants: desired state

/** The current username of the member whose "user" row the surrounding query reads. */
const usernameOfUserRow = (db: Db) =>
  db
    .select({ username: tradingviewUsernames.username })
    .from(tradingviewUsernames)
    .where(and(eq(tradingviewUsernames.userId, user.id), isNull(tradingviewUsernames.replacedAt)))
    .limit(1);

/**
 * Locks the member's row, which serialises syncs of one member (activation and a billing event at
 * the same moment), and answers their current TradingView username with it (null: no such member).
 */
export async function lockMember(db: Db, userId: string): Promise<{ username: string | null } | null> {
  const [row] = await db
    .select({ username: sql<string | null>`(${usernameOfUserRow(db)})` })
    .from(user)
    .where(eq(user.id, userId))
    .for('update', { of: user });
  return row ?? null;
}

/** What a sync decides the member's grants from (ExistingGrant: the grant rows as the decision reads them). */
export type MemberSyncState = MemberAccess & { grants: ExistingGrant[]; catalog: CatalogScript[] };

type ExistingGrantJson = Omit<ExistingGrant, 'desiredExpiresAt'> & { desiredExpiresAt: string | null };

/**
 * lockMember with everything a sync decides from, in one statement: the member's subscriptions,
 * their grant rows and the script catalog (one round trip where four were: a renewal wave syncs
 * every member it renews). Null: no such member.
 */
export async function lockMemberForSync(db: Db, userId: string, initialBundle: readonly string[]): Promise<MemberSyncState | null> {
  // wrapped: a column put straight into a select field's SQL is written without its table
  const memberId = sql`${user.id}`;
  const grants = sql`coalesce((SELECT json_agg(json_build_object('id', g.id, 'username', g.username, 'desired', g.desired, 'desiredExpiresAt', g.desired_expires_at, 'desiredScripts', g.desired_scripts) ORDER BY g.created_at)
                                 FROM ${tradingviewGrants} g WHERE g.user_id = ${memberId}), '[]'::json)`;
  const [row] = await db
    .select({ username: sql<string | null>`(${usernameOfUserRow(db)})`, subscriptions: accessRowsJson(memberId), grants, catalog: catalogJson() })
    .from(user)
    .where(eq(user.id, userId))
    .for('update', { of: user });
  if (!row) return null;
  return {
    username: row.username,
    subscriptions: accessRowsFromJson(row.subscriptions),
    grants: (row.grants as ExistingGrantJson[]).map((grant) => ({ ...grant, desiredExpiresAt: dateOrNull(grant.desiredExpiresAt) })),
    catalog: await catalogFromJson(db, row.catalog, initialBundle),
  };
}

export async function grantsForUser(db: Db, userId: string): Promise<GrantRow[]> {
  const rows = await db.select().from(tradingviewGrants).where(eq(tradingviewGrants.userId, userId)).orderBy(asc(tradingviewGrants.createdAt));
  return rows.map(asGrant);
}

const grantOf = preparedPerDb((db) =>
  db
    .select()
    .from(tradingviewGrants)
    .where(and(eq(tradingviewGrants.userId, sql.placeholder('userId')), eq(tradingviewGrants.username, sql.placeholder('username'))))
    .limit(1)
    .prepare('grant_for'),
);

export async function grantFor(db: Db, userId: string, username: string): Promise<GrantRow | null> {
  const [row] = await grantOf(db).execute({ userId, username });
  return row ? asGrant(row) : null;
}

const targetColumns = (target: GrantTarget) => ({
  desired: target.desired,
  desiredExpiresAt: target.desired === 'grant' ? target.expiresAt : null,
  desiredScripts: target.desired === 'grant' && target.scripts ? [...target.scripts] : null,
});

export async function createGrant(db: Db, userId: string, username: string, target: GrantTarget, now: Date): Promise<void> {
  await db
    .insert(tradingviewGrants)
    .values({ userId, username, ...targetColumns(target), status: 'pending', attempts: 0, nextAttemptAt: now, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [tradingviewGrants.userId, tradingviewGrants.username],
      set: { ...targetColumns(target), status: 'pending', attempts: 0, nextAttemptAt: now, lastError: null, failingSince: null, updatedAt: now },
    });
}

/**
 * A new target for a row: due now, with a fresh failure count. A row a reconciler is working on
 * keeps its lease; that reconciler sees the change when it completes and requeues the row.
 */
export async function setGrantTarget(db: Db, id: string, target: GrantTarget, now: Date): Promise<void> {
  const leased = sql`${tradingviewGrants.status} = 'processing'`;
  await db
    .update(tradingviewGrants)
    .set({
      ...targetColumns(target),
      status: sql`CASE WHEN ${leased} THEN 'processing' ELSE 'pending' END`,
      nextAttemptAt: sql`CASE WHEN ${leased} THEN ${tradingviewGrants.nextAttemptAt} ELSE ${now} END`,
      attempts: 0,
      lastError: null,
      failingSince: null,
      updatedAt: now,
    })
    .where(eq(tradingviewGrants.id, id));
}

/** A member asking again for a username whose grant is waiting out a back-off: try it now. */
export async function retryFailedGrantNow(db: Db, userId: string, username: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(tradingviewGrants)
    .set({ nextAttemptAt: now, updatedAt: now })
    // any case: a name linked before in another spelling stays current when given again
    .where(and(eq(tradingviewGrants.userId, userId), sameUsername(tradingviewGrants.username, username), eq(tradingviewGrants.status, 'failed')))
    .returning({ id: tradingviewGrants.id });
  return rows.length > 0;
}

/** Everyone whose grants could need a change: a current username, or access not yet revoked. */
export async function usersToSweep(db: Db): Promise<string[]> {
  const withUsername = await db
    .select({ userId: tradingviewUsernames.userId })
    .from(tradingviewUsernames)
    .where(isNull(tradingviewUsernames.replacedAt));
  const withGrants = await db
    .selectDistinct({ userId: tradingviewGrants.userId })
    .from(tradingviewGrants)
    .where(or(eq(tradingviewGrants.desired, 'grant'), ne(tradingviewGrants.status, 'revoked')));
  const ids = new Set<string>();
  for (const row of [...withUsername, ...withGrants]) if (row.userId) ids.add(row.userId);
  return [...ids];
}

/** What a sync of a member reads (username, subscriptions, grant rows), for many members at once. */
export type MemberGrantState = { username: string | null; subscriptions: SubscriptionAccessRow[]; grants: GrantRow[] };

/**
 * The sweep's reads for a slice of members: three queries whatever its size, in the order a
 * member's own sync reads them (subscriptions newest first, grant rows oldest first).
 */
export async function memberGrantStates(db: Db, userIds: readonly string[]): Promise<Map<string, MemberGrantState>> {
  const states = new Map<string, MemberGrantState>(userIds.map((userId) => [userId, { username: null, subscriptions: [], grants: [] }]));
  if (userIds.length === 0) return states;
  const ids = [...userIds];
  const usernames = await db
    .select({ userId: tradingviewUsernames.userId, username: tradingviewUsernames.username })
    .from(tradingviewUsernames)
    .where(and(inArray(tradingviewUsernames.userId, ids), isNull(tradingviewUsernames.replacedAt)));
  for (const row of usernames) {
    const state = row.userId ? states.get(row.userId) : undefined;
    if (state) state.username = row.username;
  }
  const subscriptions = await accessRowsOfMembers(db, ids);
  for (const { userId, ...row } of subscriptions) if (userId) states.get(userId)?.subscriptions.push(row);
  const grants = await db.select().from(tradingviewGrants).where(inArray(tradingviewGrants.userId, ids)).orderBy(asc(tradingviewGrants.createdAt));
  for (const row of grants) states.get(row.userId)?.grants.push(asGrant(row));
  return states;
}

/**
 * Rows the reconciler considered done by `before`, for the audit against TradingView's own
 * list (one read when the listing began: a row settled since may be missing from it).
 */
export async function settledGrants(db: Db, before: Date): Promise<GrantRow[]> {
  const rows = await db
    .select()
    .from(tradingviewGrants)
    .where(and(inArray(tradingviewGrants.status, ['granted', 'revoked']), lte(tradingviewGrants.updatedAt, before)));
  return rows.map(asGrant);
}

// ---------------------------------------------------------------- grants: the work queue

/**
 * Another row for the same TradingView account under a live claim: its calls would race ours on
 * the same access (two adds, a revoke crossing a grant), so the row waits for that one to finish.
 */
const notBeingWorkedOn = (now: Date) =>
  sql`not exists (select 1 from ${tradingviewGrants} as busy where lower(busy.username) = lower(${tradingviewGrants.username}) and busy.status = 'processing' and busy.next_attempt_at > ${now.toISOString()}::timestamptz and busy.id <> ${tradingviewGrants.id})`;

/**
 * Claims the next due row in one statement: SKIP LOCKED lets several instances claim at once
 * without waiting on each other, and the lease (next_attempt_at in the future, status processing)
 * keeps others off it while TradingView is called. A crash leaves the lease to run out, after
 * which the row is due again.
 */
export async function claimNextDue(db: Db, now: Date, leaseMs: number): Promise<GrantRow | null> {
  const due = db
    .select({ id: tradingviewGrants.id })
    .from(tradingviewGrants)
    .where(and(inArray(tradingviewGrants.status, OPEN_STATUSES), lte(tradingviewGrants.nextAttemptAt, now), notBeingWorkedOn(now)))
    .orderBy(asc(tradingviewGrants.nextAttemptAt))
    .limit(1)
    .for('update', { skipLocked: true });
  const [claimed] = await db
    .update(tradingviewGrants)
    .set({ status: 'processing', nextAttemptAt: new Date(now.getTime() + leaseMs), updatedAt: now })
    .where(eq(tradingviewGrants.id, sql`(${due})`))
    .returning();
  return claimed ? asGrant(claimed) : null;
}

/**
 * Extends a claim that is still ours to `until`; the renewed row, or null when the lease was lost.
 */
export async function renewClaim(db: Db, claimed: GrantRow, until: Date): Promise<GrantRow | null> {
  const [row] = await db
    .update(tradingviewGrants)
    .set({ nextAttemptAt: until })
    .where(and(eq(tradingviewGrants.id, claimed.id), eq(tradingviewGrants.status, 'processing'), eq(tradingviewGrants.nextAttemptAt, claimed.nextAttemptAt)))
    .returning();
  return row ? asGrant(row) : null;
}

/** Targets of other members' rows for the same TradingView account. */
export async function otherTargetsForUsername(
  db: Db,
  username: string,
  exceptId: string,
): Promise<{ desired: GrantDesired; desiredExpiresAt: Date | null; desiredScripts: string[] | null }[]> {
  const rows = await db
    .select({ desired: tradingviewGrants.desired, desiredExpiresAt: tradingviewGrants.desiredExpiresAt, desiredScripts: tradingviewGrants.desiredScripts })
    .from(tradingviewGrants)
    .where(and(sameUsername(tradingviewGrants.username, username), ne(tradingviewGrants.id, exceptId)));
  return rows.map((row) => ({ ...row, desired: row.desired as GrantDesired }));
}

/**
 * `deferred`: TradingView could not be asked (throttled, or the vendor's session expired): the
 * row waits until `retryAt` with its failure count as it was, since the grant itself did not fail.
 */
type Outcome =
  | { ok: true; applied: GrantTarget }
  | { ok: false; lastError: string; retryAt: (attempts: number) => Date }
  | { ok: 'deferred'; retryAt: Date };

/**
 * Records what happened to a claimed row. When its target changed while TradingView was being
 * called, the row goes back to pending at once so the new target is applied next.
 * Returns false when the lease was lost (another reconciler took the row over).
 */
export async function finishClaim(db: Db, claimed: GrantRow, outcome: Outcome, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(tradingviewGrants).where(eq(tradingviewGrants.id, claimed.id)).for('update');
    if (!row || row.status !== 'processing' || row.nextAttemptAt.getTime() !== claimed.nextAttemptAt.getTime()) return false;
    const unchanged = sameTarget(targetOf(asGrant(row)), targetOf(claimed));
    if (outcome.ok === true) {
      await tx
        .update(tradingviewGrants)
        .set({
          status: unchanged ? (claimed.desired === 'grant' ? 'granted' : 'revoked') : 'pending',
          grantedExpiresAt: outcome.applied.desired === 'grant' ? outcome.applied.expiresAt : null,
          attempts: 0,
          lastError: null,
          failingSince: null,
          nextAttemptAt: now,
          updatedAt: now,
        })
        .where(eq(tradingviewGrants.id, row.id));
      // First confirmed grant of a script to this row: the member is told, once (the key dedupes
      // re-grants); a plan whose bundle is empty gives nothing to tell.
      const granted = outcome.applied.desired === 'grant' ? (outcome.applied.scripts ?? []) : [];
      if (unchanged && granted.length > 0) await queueAccessActiveMail(tx, row, () => scriptNames(tx, granted));
      return true;
    }
    if (outcome.ok === 'deferred') {
      await tx
        .update(tradingviewGrants)
        .set({
          status: unchanged && row.attempts > 0 ? 'failed' : 'pending',
          attempts: unchanged ? row.attempts : 0,
          failingSince: unchanged ? row.failingSince : null,
          nextAttemptAt: unchanged ? outcome.retryAt : now,
          updatedAt: now,
        })
        .where(eq(tradingviewGrants.id, row.id));
      return true;
    }
    const attempts = unchanged ? row.attempts + 1 : 0;
    await tx
      .update(tradingviewGrants)
      .set({
        status: unchanged ? 'failed' : 'pending',
        attempts,
        lastError: outcome.lastError,
        // the run of failures goes on from its first failure; a new target starts afresh
        failingSince: unchanged ? (row.failingSince ?? now) : null,
        nextAttemptAt: unchanged ? outcome.retryAt(attempts) : now,
        updatedAt: now,
      })
      .where(eq(tradingviewGrants.id, row.id));
    return true;
  });
}

// ---------------------------------------------------------------- access the shop gave

const shopKey = (scriptId: string, username: string) =>
  and(eq(tradingviewShopAccess.scriptId, scriptId), eq(tradingviewShopAccess.username, username.toLowerCase()));

/** What the shop recorded when it gave `username` access to a script; null when it never did. */
export async function findShopAccess(db: Db, scriptId: string, username: string): Promise<ShopAccess | null> {
  const [row] = await db.select({ expiresAt: tradingviewShopAccess.expiresAt }).from(tradingviewShopAccess).where(shopKey(scriptId, username)).limit(1);
  return row ?? null;
}

/** What the shop recorded for `username` on each of these scripts (scripts it never gave access to are absent). */
export async function shopAccessOf(db: Db, scriptIds: readonly string[], username: string): Promise<Map<string, ShopAccess>> {
  if (scriptIds.length === 0) return new Map();
  const rows = await db
    .select({ scriptId: tradingviewShopAccess.scriptId, expiresAt: tradingviewShopAccess.expiresAt })
    .from(tradingviewShopAccess)
    .where(and(inArray(tradingviewShopAccess.scriptId, [...scriptIds]), eq(tradingviewShopAccess.username, username.toLowerCase())));
  return new Map(rows.map(({ scriptId, expiresAt }) => [scriptId, { expiresAt }]));
}

export async function recordShopAccess(db: Db, scriptId: string, username: string, expiresAt: Date | null, now: Date): Promise<void> {
  await db
    .insert(tradingviewShopAccess)
    .values({ scriptId, username: username.toLowerCase(), expiresAt, grantedAt: now })
    .onConflictDoUpdate({ target: [tradingviewShopAccess.scriptId, tradingviewShopAccess.username], set: { expiresAt, grantedAt: now } });
}

export async function forgetShopAccess(db: Db, scriptId: string, username: string): Promise<void> {
  await db.delete(tradingviewShopAccess).where(shopKey(scriptId, username));
}

/** Lowercase usernames the shop gave access to on a script. */
export async function shopUsernames(db: Db, scriptId: string): Promise<Set<string>> {
  const rows = await db.select({ username: tradingviewShopAccess.username }).from(tradingviewShopAccess).where(eq(tradingviewShopAccess.scriptId, scriptId));
  return new Set(rows.map((row) => row.username));
}

// ---------------------------------------------------------------- the sandbox TradingView

const live = (now: Date) => or(isNull(sandboxTradingviewAccess.expiration), gt(sandboxTradingviewAccess.expiration, now));

export async function listSandboxAccess(db: Db, scriptId: string, username: string | null, now: Date): Promise<ScriptAccess[]> {
  return db
    .select({ username: sandboxTradingviewAccess.username, expiration: sandboxTradingviewAccess.expiration })
    .from(sandboxTradingviewAccess)
    .where(
      and(
        eq(sandboxTradingviewAccess.scriptId, scriptId),
        live(now),
        // TradingView's filter is a search, not an exact match
        username ? sql`position(lower(${username}) in lower(${sandboxTradingviewAccess.username})) > 0` : undefined,
      ),
    )
    .orderBy(desc(sandboxTradingviewAccess.createdAt));
}

export async function addSandboxAccess(db: Db, scriptId: string, username: string, expiration: Date | null, now: Date): Promise<'ok' | 'exists'> {
  return db.transaction(async (tx) => {
    const match = and(eq(sandboxTradingviewAccess.scriptId, scriptId), sameUsername(sandboxTradingviewAccess.username, username));
    const [existing] = await tx.select().from(sandboxTradingviewAccess).where(match).for('update');
    if (existing && (existing.expiration === null || existing.expiration > now)) return 'exists';
    // access that ran out is gone on TradingView: adding starts afresh
    if (existing) await tx.delete(sandboxTradingviewAccess).where(match);
    const inserted = await tx
      .insert(sandboxTradingviewAccess)
      .values({ scriptId, username, expiration, createdAt: now })
      .onConflictDoNothing()
      .returning({ username: sandboxTradingviewAccess.username });
    return inserted.length ? 'ok' : 'exists';
  });
}

export async function modifySandboxAccess(db: Db, scriptId: string, username: string, expiration: Date | null, now: Date): Promise<boolean> {
  const rows = await db
    .update(sandboxTradingviewAccess)
    .set({ expiration })
    .where(and(eq(sandboxTradingviewAccess.scriptId, scriptId), sameUsername(sandboxTradingviewAccess.username, username), live(now)))
    .returning({ username: sandboxTradingviewAccess.username });
  return rows.length > 0;
}

export async function removeSandboxAccess(db: Db, scriptId: string, username: string, now: Date): Promise<'ok' | 'not_exists'> {
  const rows = await db
    .delete(sandboxTradingviewAccess)
    .where(and(eq(sandboxTradingviewAccess.scriptId, scriptId), sameUsername(sandboxTradingviewAccess.username, username)))
    .returning({ expiration: sandboxTradingviewAccess.expiration });
  return rows.some((row) => row.expiration === null || row.expiration > now) ? 'ok' : 'not_exists';
}
