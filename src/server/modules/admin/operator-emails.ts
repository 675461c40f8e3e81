import { listOperators } from '../auth/operators.repository';
import type { OperatorDirectory } from '../auth/operator';

/**
 * Who receives operator mail (alerts): the one place that answers it. The operators named by
 * ADMIN_EMAILS and those stored in the database (npm run admin), each once.
 */
export async function operatorEmails(directory: Pick<OperatorDirectory, 'db'> & { config: Pick<OperatorDirectory['config'], 'adminEmails'> }): Promise<string[]> {
  const stored = await listOperators(directory.db);
  return [...new Set([...directory.config.adminEmails, ...stored.map((operator) => operator.email)])];
}
