import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';

/** The spec's RPC: the SQL function user_has_premium_access decides, so SQL and app agree. */
export async function userHasPremiumAccess(db: Db, userId: string): Promise<boolean> {
  const [row] = await queryRows<{ access: boolean }>(db, sql`SELECT user_has_premium_access(${userId}::uuid) AS access`);
  return row?.access === true;
}
