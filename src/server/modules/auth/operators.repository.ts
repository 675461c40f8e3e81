// The operators stored in the database (`npm run admin`); ADMIN_EMAILS names the others.
import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { operators } from '../../db/schema';

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
