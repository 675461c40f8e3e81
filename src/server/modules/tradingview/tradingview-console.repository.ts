import { and, asc, desc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tradingviewGrants, user } from '../../db/schema';
import type { GrantRow } from './tradingview.repository';

// Rows still to be worked on: the console's grant queue.
const QUEUED = ['pending', 'processing', 'failed'] as const;

export type QueuedGrant = GrantRow & { email: string };

/** The open grant rows with their member's e-mail, oldest first. */
export async function queuedGrants(db: Db): Promise<QueuedGrant[]> {
  const rows = await db
    .select({ grant: tradingviewGrants, email: user.email })
    .from(tradingviewGrants)
    .innerJoin(user, eq(user.id, tradingviewGrants.userId))
    .where(inArray(tradingviewGrants.status, [...QUEUED]))
    .orderBy(asc(tradingviewGrants.createdAt));
  return rows.map((row) => ({ ...(row.grant as GrantRow), email: row.email }));
}

/**
 * The latest rows the reconciler finished (granted or revoked), newest first: the latest of each
 * status by the (status, updated_at) index, merged, so 100,000 settled rows are never sorted.
 */
export async function recentlySettledGrants(db: Db, limit: number): Promise<QueuedGrant[]> {
  const latest = await Promise.all(
    (['granted', 'revoked'] as const).map((status) =>
      db
        .select({ grant: tradingviewGrants, email: user.email })
        .from(tradingviewGrants)
        .innerJoin(user, eq(user.id, tradingviewGrants.userId))
        .where(eq(tradingviewGrants.status, status))
        .orderBy(desc(tradingviewGrants.updatedAt))
        .limit(limit),
    ),
  );
  return latest
    .flat()
    .map((row) => ({ ...(row.grant as GrantRow), email: row.email }))
    .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())
    .slice(0, limit);
}

/** Every failed row is due now; the reconciler picks them up on its next pass. */
export async function retryAllFailedGrants(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(tradingviewGrants)
    .set({ nextAttemptAt: now, updatedAt: now })
    .where(eq(tradingviewGrants.status, 'failed'))
    .returning({ id: tradingviewGrants.id });
  return rows.length;
}

/** Whether a grant has been failing since `before` or earlier (the 15-minute alert). */
export async function grantsFailingSince(db: Db, before: Date): Promise<number> {
  const rows = await db
    .select({ id: tradingviewGrants.id })
    .from(tradingviewGrants)
    .where(and(eq(tradingviewGrants.status, 'failed'), isNotNull(tradingviewGrants.failingSince), lte(tradingviewGrants.failingSince, before)));
  return rows.length;
}



/** Members who have a grant row for this username (any case). */
export async function ownersOfUsername(db: Db, username: string): Promise<{ userId: string; email: string }[]> {
  return db
    .selectDistinct({ userId: user.id, email: user.email })
    .from(tradingviewGrants)
    .innerJoin(user, eq(user.id, tradingviewGrants.userId))
    .where(sql`lower(${tradingviewGrants.username}) = lower(${username})`);
}

/** Every member who ever had a grant row, by lowercase username. */
export async function ownersByUsername(db: Db): Promise<Map<string, { userId: string; email: string }[]>> {
  const rows = await db
    .selectDistinct({ username: sql<string>`lower(${tradingviewGrants.username})`, userId: user.id, email: user.email })
    .from(tradingviewGrants)
    .innerJoin(user, eq(user.id, tradingviewGrants.userId));
  const owners = new Map<string, { userId: string; email: string }[]>();
  for (const row of rows) owners.set(row.username, [...(owners.get(row.username) ?? []), { userId: row.userId, email: row.email }]);
  return owners;
}
