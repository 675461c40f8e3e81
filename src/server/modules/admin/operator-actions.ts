import type { Logger } from '../../logger';

/** Who did it: the signed-in operator. */
export type Operator = { id: string; email: string };

export type OperatorAction = { operator: Operator; action: string; target?: string; details?: Record<string, unknown> };

/**
 * Stand-in for the audit log's recordOperatorAction (issue 13, built beside this work): one
 * structured log line per operator action until the audit table exists, then this forwards there.
 */
export function createOperatorActions(logger: Logger) {
  return {
    async record({ operator, action, target, details }: OperatorAction): Promise<void> {
      logger.info({ operatorId: operator.id, operatorEmail: operator.email, action, target, details }, 'operator action');
    },
  };
}

export type OperatorActions = ReturnType<typeof createOperatorActions>;
