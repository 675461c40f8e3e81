// The operator audit log: written by every operator action (the console's, and the other
// operator pages'), read by the console's Audit log page.
import { count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { operatorAuditLog, user } from '../../db/schema';

export type OperatorAction = {
  /** The operator's e-mail as signed in. */
  operator: string;
  /** What was done, in snake_case: 'grant_comp', 'revoke_access', 'replay_event'… */
  action: string;
  /** The member acted on; null for actions on the shop as a whole. */
  targetUserId?: string | null;
  details?: Record<string, unknown>;
};

/** Records one operator action; pass the transaction when the action runs in one. */
export async function recordOperatorAction(db: Db, entry: OperatorAction): Promise<void> {
  await db.insert(operatorAuditLog).values({
    operatorEmail: entry.operator.toLowerCase(),
    action: entry.action,
    targetUserId: entry.targetUserId ?? null,
    details: entry.details ?? {},
  });
}

export async function auditLogPage(db: Db, options: { page: number; pageSize: number; targetUserId?: string }) {
  const where = options.targetUserId ? eq(operatorAuditLog.targetUserId, options.targetUserId) : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: operatorAuditLog.id,
        operatorEmail: operatorAuditLog.operatorEmail,
        action: operatorAuditLog.action,
        targetUserId: operatorAuditLog.targetUserId,
        targetEmail: user.email,
        details: operatorAuditLog.details,
        createdAt: operatorAuditLog.createdAt,
      })
      .from(operatorAuditLog)
      .leftJoin(user, eq(user.id, operatorAuditLog.targetUserId))
      .where(where)
      .orderBy(desc(operatorAuditLog.createdAt), desc(operatorAuditLog.id))
      .limit(options.pageSize)
      .offset((options.page - 1) * options.pageSize),
    db.select({ value: count() }).from(operatorAuditLog).where(where),
  ]);
  return { rows, total: total?.value ?? 0 };
}
