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

/** The content studio's pieces (text of up to 256 KB, as JSON) and image uploads (up to 5 MB). */
export const CONTENT_BODY_LIMIT = 1024 * 1024;
export const CONTENT_IMAGE_BODY_LIMIT = 5 * 1024 * 1024;

const api = tooLarge(API_BODY_LIMIT);
const webhooks = tooLarge(WEBHOOK_BODY_LIMIT);
const contentPieces = bodyLimit({
  maxSize: CONTENT_BODY_LIMIT,
  onError: (c) => c.json(errorBody('payload_too_large', 'The text is too long: a guide or strategy may be at most 256 KB of Markdown. Split it into several pieces.'), 413),
});
const contentImages = bodyLimit({
  maxSize: CONTENT_IMAGE_BODY_LIMIT,
  onError: (c) => c.json(errorBody('payload_too_large', 'An image may be at most 5 MB: make it smaller (a PNG or WebP of the chart usually weighs far less).'), 413),
});

function limitFor(path: string) {
  if (path.startsWith('/api/webhooks/')) return webhooks;
  if (path === '/api/admin/content/images') return contentImages;
  if (path.startsWith('/api/admin/content')) return contentPieces;
  return api;
}

/**
 * Every request's body is bounded before anything reads it: a declared length over the limit is
 * refused at once, a streamed body as soon as it passes the limit (hono/body-limit). GET and HEAD
 * skip it: their body is never read (a fetch Request cannot carry one, so hono/body-limit let
 * them through anyway), and its asking for the body made the Node adapter build a full Request
 * for every page and API read.
 */
export const requestBodyLimit = createMiddleware((c, next) => {
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
  return limitFor(c.req.path)(c, next);
});
