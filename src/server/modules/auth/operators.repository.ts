// The operators stored in the database (`npm run admin`); ADMIN_EMAILS names the others.
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { operatorAuditLog, operators, user } from '../../db/schema';

const normalise = (email: string) => email.trim().toLowerCase();

export async function isStoredOperator(db: Db, email: string): Promise<boolean> {
  const [row] = await db.select({ email: operators.email }).from(operators).where(eq(operators.email, normalise(email))).limit(1);
  return row !== undefined;
}

/** False when the e-mail was already an operator. */
export async function addOperator(db: Db, email: string, addedBy: string): Promise<boolean> {
  const rows = await db.insert(operators).values({ email: normalise(email), addedBy }).onConflictDoNothing().returning({ email: operators.email });
  return rows.length > 0;
}

/** False when the e-mail was not a stored operator. */
export async function removeOperator(db: Db, email: string): Promise<boolean> {
  const rows = await db.delete(operators).where(eq(operators.email, normalise(email))).returning({ email: operators.email });
  return rows.length > 0;
}

export async function listOperators(db: Db): Promise<{ email: string; addedBy: string; createdAt: Date }[]> {
  return db.select().from(operators).orderBy(asc(operators.email));
}

/** One audit-log line per sign-in of a named operator's account (the console shows them with the rest). */
export async function recordOperatorSignIn(db: Db, entry: { email: string; userId: string; details: Record<string, unknown> }): Promise<void> {
  await db.insert(operatorAuditLog).values({ operatorEmail: normalise(entry.email), action: 'operator_sign_in', targetUserId: entry.userId, details: entry.details });
}

/** The accounts of these addresses, by lowercase e-mail (an operator may not have signed up yet). */
export async function accountsByEmail(db: Db, emails: string[]): Promise<Map<string, { emailVerified: boolean; twoFactorEnabled: boolean }>> {
  if (emails.length === 0) return new Map();
  const rows = await db
    .select({ email: user.email, emailVerified: user.emailVerified, twoFactorEnabled: user.twoFactorEnabled })
    .from(user)
    .where(inArray(user.email, emails.map(normalise)));
  return new Map(rows.map(({ email, ...account }) => [normalise(email), account]));
}
