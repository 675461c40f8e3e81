import { and, desc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { user, userSubscriptions } from '../../db/schema';

/** Sandbox subscriptions with a customer (whose portal can renew them now), newest first. */
export async function sandboxSubscriptions(db: Db, limit: number) {
  return db
    .select({ email: user.email, planType: userSubscriptions.planType, status: userSubscriptions.status, customerId: userSubscriptions.providerCustomerId })
    .from(userSubscriptions)
    .leftJoin(user, eq(user.id, userSubscriptions.userId))
    .where(and(eq(userSubscriptions.provider, 'sandbox'), isNotNull(userSubscriptions.providerCustomerId)))
    .orderBy(desc(userSubscriptions.createdAt))
    .limit(limit);
}
