// One-time invitations to become an operator. Only the token's hash is kept: the link alone is the proof.
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { operatorInvitations } from '../../db/schema';

export type OperatorInvitation = { id: string; email: string; invitedBy: string; expiresAt: Date };

export async function insertInvitation(db: Db, invitation: { email: string; tokenHash: string; invitedBy: string; expiresAt: Date }): Promise<void> {
  await db.insert(operatorInvitations).values(invitation);
}

const usable = (tokenHash: string, now: Date) =>
  and(eq(operatorInvitations.tokenHash, tokenHash), isNull(operatorInvitations.usedAt), gt(operatorInvitations.expiresAt, now));

/** The invitation behind this token while it can still be used. */
export async function findUsableInvitation(db: Db, tokenHash: string, now: Date): Promise<OperatorInvitation | null> {
  const [row] = await db
    .select({ id: operatorInvitations.id, email: operatorInvitations.email, invitedBy: operatorInvitations.invitedBy, expiresAt: operatorInvitations.expiresAt })
    .from(operatorInvitations)
    .where(usable(tokenHash, now))
    .limit(1);
  return row ?? null;
}

/** Marks the invitation used and answers it; null when it is not usable (used first by another request, expired, unknown). */
export async function useInvitation(db: Db, tokenHash: string, now: Date): Promise<OperatorInvitation | null> {
  const [row] = await db
    .update(operatorInvitations)
    .set({ usedAt: now })
    .where(usable(tokenHash, now))
    .returning({ id: operatorInvitations.id, email: operatorInvitations.email, invitedBy: operatorInvitations.invitedBy, expiresAt: operatorInvitations.expiresAt });
  return row ?? null;
}
