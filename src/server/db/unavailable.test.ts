import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from './unavailable';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('a failure that says the database is away', () => {
  it.each([
    ['a connection ended by a restart, in a failed query', new DrizzleQueryError('select 1', [], coded('terminating connection due to administrator command', '57P01'))],
    ['a server starting up', coded('the database system is starting up', '57P03')],
    ['a connection refused while a transaction begins', coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a connection that ended under a query', new DrizzleQueryError('select 1', [], new Error('Connection terminated unexpectedly'))],
    ['no connection to be had in time', new Error('timeout exceeded when trying to connect')],
  ])('is %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a query that is wrong', new DrizzleQueryError('select nope', [], coded('column "nope" does not exist', '42703'))],
    ['a duplicate key', coded('duplicate key value violates unique constraint', '23505')],
    ['an outside service that refused the connection', Object.assign(new TypeError('fetch failed'), { cause: coded('connect ECONNREFUSED', 'ECONNREFUSED') })],
    ['anything else', 'a string'],
  ])('is not %s', (_, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
