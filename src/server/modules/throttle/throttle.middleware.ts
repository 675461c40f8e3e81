import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ThrottleRule } from '@shared/throttle';
import type { Db } from '../../db/client';
import { clientAddressOf } from '../../http/client-address';
import { consumeThrottle } from './throttle.repository';
import { serverError } from '../../http/server-errors';

/** The 429 every limit of ours answers with; the client shows 'Too Many Attempts' for it. */
const rateLimitedError = () => serverError('rateLimited');

/**
 * Limits a route per client address (the one clientAddress() resolved) under `name`, for the
 * requests `applies` picks. Requests with no address (none in-process) share one key.
 */
export function limitPerAddress<E extends { Variables: object }>(
  deps: { db: Db; clock: () => Date },
  name: string,
  rule: ThrottleRule,
  applies: (c: Context<E>) => boolean = () => true,
) {
  return createMiddleware<E>(async (c, next) => {
    if (applies(c)) {
      const decision = await consumeThrottle(deps.db, `${name}:${clientAddressOf(c.req.raw.headers) ?? 'unknown'}`, rule, deps.clock());
      if (!decision.allowed) {
        c.header('Retry-After', String(Math.ceil(decision.retryAfterMs / 1000)));
        throw rateLimitedError();
      }
    }
    await next();
  });
}
