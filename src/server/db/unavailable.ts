// Whether a failure says the database cannot be reached right now (a restart, a failover, the
// network) rather than that a query was wrong: the same request may well succeed in a few seconds.
import { DrizzleQueryError } from 'drizzle-orm/errors';

/** SQLSTATE classes and codes of a connection lost or refused: 08 (connection exception), 57P01–57P03 (shutdown, starting up). */
const LOST = /^(08...|57P0[123])$/;
/** What the Postgres driver says when a connection ends under it or cannot be had. */
const DRIVER_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable)/;
/** A socket that could not reach the server (a failed fetch to an outside service carries these on its cause, never on itself). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH']);

export function isDatabaseUnavailable(error: unknown): boolean {
  // a failed query wraps the driver's error; a transaction that cannot begin throws the driver's own
  const cause = error instanceof DrizzleQueryError ? error.cause : error;
  if (!(cause instanceof Error)) return false;
  const code = (cause as { code?: unknown }).code;
  if (typeof code !== 'string') return DRIVER_MESSAGES.test(cause.message);
  return LOST.test(code) || SOCKET_CODES.has(code);
}
