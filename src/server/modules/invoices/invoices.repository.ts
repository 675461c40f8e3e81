// The member's customers at the payment provider, whose invoices the member's list shows.
import { and, eq, isNotNull, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { userSubscriptions } from '../../db/schema';

/**
 * Every customer id of the member's purchases at this provider (a lifetime purchase and a later
 * subscription may have made two), in the mode the provider runs in: ids of the other Stripe mode
 * are unknown to it.
 */
export async function customerIdsOfUser(db: Db, userId: string, provider: { kind: string; livemode: boolean }): Promise<string[]> {
  const rows = await db
    .selectDistinct({ customerId: userSubscriptions.providerCustomerId })
    .from(userSubscriptions)
    .where(
      and(
        eq(userSubscriptions.userId, userId),
        eq(userSubscriptions.provider, provider.kind),
        isNotNull(userSubscriptions.providerCustomerId),
        or(isNull(userSubscriptions.providerLivemode), eq(userSubscriptions.providerLivemode, provider.livemode)),
      ),
    );
  return rows.flatMap((row) => (row.customerId ? [row.customerId] : []));
}
