// The reads behind the lifecycle mails that are mail's own: a member's address. Who is due a "finish
// setting up" reminder is provider-records' read of checkout sessions (checkout-session-reads.ts);
// whose access ends or ended comes as access changes (access-mails.ts); whom to write about a
// subscription is entitlements' read (entitlement-reads.ts).
// Each mail is written as an outbox intent with a dedupe key, so several instances write each mail once.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { user } from '../../db/schema';

export async function emailOfUser(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: user.email }).from(user).where(eq(user.id, userId)).limit(1);
  return row?.email ?? null;
}
