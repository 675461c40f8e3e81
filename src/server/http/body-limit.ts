import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { errorBody } from './errors';

/** JSON API and auth requests are a few hundred bytes; 64 KB leaves room and bounds memory. */
export const API_BODY_LIMIT = 64 * 1024;
/** Stripe's webhook events stay far below this (the largest carry a few expanded objects). */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

const tooLarge = (limit: number) =>
  bodyLimit({
    maxSize: limit,
    onError: (c) => c.json(errorBody('payload_too_large', `The request body is larger than ${limit / 1024} KB.`), 413),
  });

const api = tooLarge(API_BODY_LIMIT);
const webhooks = tooLarge(WEBHOOK_BODY_LIMIT);

/**
 * Every request's body is bounded before anything reads it: a declared length over the limit is
 * refused at once, a streamed body as soon as it passes the limit (hono/body-limit). GET and HEAD
 * skip it: their body is never read (a fetch Request cannot carry one, so hono/body-limit let
 * them through anyway), and its asking for the body made the Node adapter build a full Request
 * for every page and API read.
 */
export const requestBodyLimit = createMiddleware((c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
  return (c.req.path.startsWith('/api/webhooks/') ? webhooks : api)(c, next);
});
