import type { Config } from '../../config';

/**
 * Who receives operator mail (alerts): the one place that answers it. Today the operators named
 * by ADMIN_EMAILS; operators stored in the database (npm run admin) join here when they land.
 */
export async function operatorEmails(config: Pick<Config, 'adminEmails'>): Promise<string[]> {
  return [...new Set(config.adminEmails)];
}
