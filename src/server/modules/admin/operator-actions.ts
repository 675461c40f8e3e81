import type { Db } from '../../db/client';
import { recordOperatorAction } from './audit.repository';

/** Who did it: the signed-in operator. */
export type Operator = { id: string; email: string };

export type OperatorAction = { operator: Operator; action: string; target?: string; details?: Record<string, unknown> };

/**
 * The payments and sandbox pages' actions into the audit log. Their target is an order, an event
 * or a switch rather than a member, so it is kept in the details.
 */
export function createOperatorActions(db: Db) {
  return {
    async record({ operator, action, target, details }: OperatorAction): Promise<void> {
      await recordOperatorAction(db, { operator: operator.email, action, details: { ...details, ...(target === undefined ? {} : { target }) } });
    },
  };
}

export type OperatorActions = ReturnType<typeof createOperatorActions>;
