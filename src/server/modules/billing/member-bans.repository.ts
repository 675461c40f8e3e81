// Members an operator banned: the console writes a ban with the member's access taken away, and
// checkout reads it to refuse the account, and its e-mail, from then on.
import { eq, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { memberBans } from '../../db/schema';

export type MemberBan = typeof memberBans.$inferSelect;

export async function banOf(db: Db, userId: string): Promise<MemberBan | null> {
  const [row] = await db.select().from(memberBans).where(eq(memberBans.userId, userId)).limit(1);
  return row ?? null;
}

/** Whether a buyer is banned: as the signed-in account, or by the e-mail a checkout names. */
export async function isBanned(db: Db, buyer: { userId: string | null; email: string | null }): Promise<boolean> {
  const match = or(buyer.userId ? eq(memberBans.userId, buyer.userId) : undefined, buyer.email ? eq(memberBans.email, buyer.email.toLowerCase()) : undefined);
  if (!match) return false;
  const [row] = await db.select({ userId: memberBans.userId }).from(memberBans).where(match).limit(1);
  return row !== undefined;
}

export async function insertBan(db: Db, ban: Omit<typeof memberBans.$inferInsert, 'createdAt'>): Promise<void> {
  await db.insert(memberBans).values({ ...ban, email: ban.email.toLowerCase() });
}
