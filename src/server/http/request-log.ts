import type { MiddlewareHandler } from 'hono';
import { requestLogger, type Logger } from '../logger';

/** One log line per request: method, path, status, duration and the request id. */
export function requestLog(logger: Logger): MiddlewareHandler {
  const requests = requestLogger(logger);
  return async (c, next) => {
    const started = performance.now();
    await next();
    requests.info({ requestId: c.get('requestId'), method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) }, 'request');
  };
}
