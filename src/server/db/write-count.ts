import type { PGlite } from '@electric-sql/pglite';
import type { ChangeCount } from '@shared/read-cache';

/**
 * Statements that cannot change data (a query may open with parentheses: a union); anything else,
 * BEGIN and COMMIT included, counts as a write.
 */
const READ_ONLY = /^[\s(]*(select|show)\b/i;

export const mayWrite = (statement: string): boolean => !READ_ONLY.test(statement);

export type WriteCount = ChangeCount & { readonly bump: () => void };

/**
 * How many statements that may have changed data have completed on this connection pool. Read
 * caches (read-cache.ts) drop what they read before the count moved, so a change this process
 * made is seen by its very next read. Counted when a statement completes, not when it is sent:
 * a read that ran while a write was in flight may still have seen the old data.
 */
export function writeCount(): WriteCount {
  let count = 0;
  return {
    get count() {
      return count;
    },
    bump: () => {
      count += 1;
    },
  };
}

type Query = (...args: unknown[]) => unknown;

function statementOf(first: unknown): string | null {
  if (typeof first === 'string') return first;
  const text = (first as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : null;
}

/**
 * Counts the writes of a node-postgres client (the pool's every connection): a query in the
 * callback style (pg-pool's own pool.query) or the promise style (drizzle's transactions).
 */
export function countPgWrites(client: { query: Query }, writes: WriteCount): void {
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const statement = statementOf(args[0]);
    if (statement === null || !mayWrite(statement)) return query(...args);
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (...results: unknown[]) => {
        writes.bump();
        return (last as (...values: unknown[]) => unknown)(...results);
      };
      return query(...args);
    }
    const result = query(...args);
    return result instanceof Promise ? result.finally(writes.bump) : result;
  };
}

/** Counts the writes of an embedded database: its statements, and each transaction as one write when it ends. */
export function countPgliteWrites(client: PGlite, writes: WriteCount): void {
  const afterwards = <T>(run: Promise<T>): Promise<T> => run.finally(writes.bump);
  const { query, exec, transaction } = { query: client.query.bind(client), exec: client.exec.bind(client), transaction: client.transaction.bind(client) };
  client.query = ((statement, ...rest) => (mayWrite(statement) ? afterwards(query(statement, ...rest)) : query(statement, ...rest))) as PGlite['query'];
  client.exec = (statement, ...rest) => (mayWrite(statement) ? afterwards(exec(statement, ...rest)) : exec(statement, ...rest));
  client.transaction = ((callback) => afterwards(transaction(callback))) as PGlite['transaction'];
}
