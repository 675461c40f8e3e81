import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { z } from 'zod';
import { isDatabaseUnavailable } from '../db/unavailable';
import type { Logger } from '../logger';
import { requestIdOf } from './edge';

/** An expected failure with a stable machine code; answered as the one API error shape. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export type ErrorBody = { error: { code: string; message: string; details?: unknown } };

export function errorBody(code: string, message: string, details?: unknown): ErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** How long a client should wait before sending a request again that met a database outage. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Turns any thrown value into the API error shape; only unknown failures and outages become 5xx. */
export function handleError(error: unknown, c: Context, logger: Logger) {
  if (error instanceof ApiError) {
    return c.json(errorBody(error.code, error.message, error.details), error.status);
  }
  if (error instanceof z.ZodError) {
    return c.json(errorBody('validation_failed', describeIssues(error), error.issues.map(toDetail)), 400);
  }
  if (error instanceof HTTPException) {
    const status = error.status;
    const code = status === 401 ? 'unauthorized' : status === 403 ? 'forbidden' : status === 404 ? 'not_found' : 'bad_request';
    return c.json(errorBody(code, error.message || 'Request refused'), status);
  }
  if (isDatabaseUnavailable(error)) {
    // a restart or failover: nothing was wrong with the request, and sending it again will do
    logger.warn({ err: error, requestId: requestIdOf(c) }, 'database unavailable');
    c.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    return c.json(errorBody('database_unavailable', 'The shop cannot reach its database for a moment. Please try again in a few seconds.'), 503);
  }
  logger.error({ err: error, requestId: requestIdOf(c) }, 'unhandled error');
  return c.json(errorBody('internal', 'Something went wrong on our side. Please try again.'), 500);
}

function describeIssues(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return 'Invalid request';
  return first.path.length ? `${first.path.join('.')}: ${first.message}` : first.message;
}

function toDetail(issue: z.core.$ZodIssue) {
  return { path: issue.path.join('.'), message: issue.message };
}

/** Reads and validates a JSON body; malformed JSON and schema failures are 400s, never 500s. */
export async function readJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  let body: unknown;
  try {
    const text = await c.req.text();
    body = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body is not valid JSON.');
  }
  return schema.parse(body);
}
