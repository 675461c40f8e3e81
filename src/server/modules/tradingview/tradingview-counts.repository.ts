// The TradingView card on the console's overview: members with a username, and the grant rows
// still to do or failing (the console's TradingView page lists them).
import { count, countDistinct, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tradingviewGrants, tradingviewUsernames } from '../../db/schema';

export type TradingViewCounts = { linked: number; pending: number; failing: number };

export async function tradingViewCounts(db: Db): Promise<TradingViewCounts> {
  const [[linked], byStatus] = await Promise.all([
    db.select({ value: countDistinct(tradingviewUsernames.userId) }).from(tradingviewUsernames).where(isNull(tradingviewUsernames.replacedAt)),
    // the open rows only, by the status index: settled rows (most of them at scale) are not counted
    db
      .select({ status: tradingviewGrants.status, value: count() })
      .from(tradingviewGrants)
      .where(inArray(tradingviewGrants.status, ['pending', 'processing', 'failed']))
      .groupBy(tradingviewGrants.status),
  ]);
  const of = (...statuses: string[]) => byStatus.filter((row) => statuses.includes(row.status)).reduce((sum, row) => sum + Number(row.value), 0);
  return { linked: Number(linked?.value ?? 0), pending: of('pending', 'processing'), failing: of('failed') };
}
