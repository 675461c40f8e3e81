import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';

/** The spec's RPC: the SQL function user_has_premium_access decides, so SQL and app agree. */
export async function userHasPremiumAccess(db: Db, userId: string): Promise<boolean> {
  const [row] = await queryRows<{ access: boolean }>(db, sql`SELECT user_has_premium_access(${userId}::uuid) AS access`);
  return row?.access === true;
}

/**
 * Whether the user_subscriptions row named `alias` in the surrounding query grants access at
 * `at`, asked of the same SQL function user_has_premium_access uses; for reports read under a
 * clock of their own, where now() would be the wrong instant.
 */
export function subscriptionGrantsAccessAt(alias: string, at: Date): SQL<boolean> {
  const row = sql.identifier(alias);
  return sql<boolean>`subscription_grants_access(${row}.is_active, ${row}.plan_type, ${row}.expires_at, ${at}::timestamptz)`;
}
