// The reads of linked-accounts.ts over a community integration's link table: the community
// integrations keep the same columns for a link (user_id, current, status, next_attempt_at,
// linked_at), so the queries are written once and each repository names its table.
import { asc, desc, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './db/client';
import { queryRows } from './db/query';

type LinkTable = PgTable & { userId: AnyPgColumn; current: AnyPgColumn; status: AnyPgColumn; nextAttemptAt: AnyPgColumn; linkedAt: AnyPgColumn };

export function linkTableReads<Row>(table: LinkTable) {
  return {
    /** Every account these members linked, each member's current one first, then the latest linked. */
    async accountsOfMembers(db: Db, userIds: readonly string[]): Promise<Row[]> {
      if (userIds.length === 0) return [];
      const rows = await db
        .select()
        .from(table)
        .where(inArray(table.userId, [...userIds]))
        .orderBy(asc(table.userId), desc(table.current), desc(table.linkedAt));
      return rows as Row[];
    },

    /** Accounts due a pass at `now` and those whose last attempt failed, from the open rows' partial index. */
    async queueBacklog(db: Db, now: Date): Promise<{ due: number; failed: number }> {
      const [row] = await queryRows<{ due: string | number; failed: string | number }>(
        db,
        sql`SELECT
          (SELECT count(*) FROM ${table} WHERE ${table.status} IN ('pending', 'processing', 'failed') AND ${table.nextAttemptAt} <= ${now.toISOString()}::timestamptz) AS due,
          (SELECT count(*) FROM ${table} WHERE ${table.status} = 'failed') AS failed`,
      );
      return { due: Number(row?.due ?? 0), failed: Number(row?.failed ?? 0) };
    },

    /** Every account ever linked, as (user_id, linked_at): the funnel's "community linked" step. */
    linkTimes: (): SQL => sql`SELECT ${table.userId} AS user_id, ${table.linkedAt} AS linked_at FROM ${table}`,
  };
}
