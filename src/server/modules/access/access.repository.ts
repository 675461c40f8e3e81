import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/** The spec's RPC: the SQL function user_has_premium_access decides, so SQL and app agree. */
export async function userHasPremiumAccess(db: Db, userId: string): Promise<boolean> {
  const result = await db.execute<{ access: boolean }>(sql`SELECT user_has_premium_access(${userId}::uuid) AS access`);
  return result.rows[0]?.access === true;
}
