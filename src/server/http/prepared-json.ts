import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { parseAccept } from 'hono/utils/accept';
import { oncePerKey } from '@shared/once-per-key';

/** What a route's prepared answers say about caching: the same on each of them. */
export type CacheHeaders = { 'cache-control': string; vary?: string };

type HeaderRecord = Record<string, string>;

/**
 * A JSON answer serialized, gzipped and fingerprinted once, for values that never change, with
 * the header records of its three answers (304, gzipped, plain) written once too.
 */
export type PreparedJson = {
  body: Uint8Array<ArrayBuffer>;
  gzipped: Uint8Array<ArrayBuffer>;
  etag: string;
  headers: { notModified: HeaderRecord; gzipped: HeaderRecord; plain: HeaderRecord };
};

export function prepareJson(value: unknown, cache: CacheHeaders): PreparedJson {
  const body = new Uint8Array(Buffer.from(JSON.stringify(value)));
  const gzipped = new Uint8Array(gzipSync(body));
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  const notModified = { ...cache, etag, vary: cache.vary ? `${cache.vary}, Accept-Encoding` : 'Accept-Encoding' };
  const json = { ...notModified, 'content-type': 'application/json' };
  return {
    body,
    gzipped,
    etag,
    headers: {
      notModified,
      gzipped: { ...json, 'content-encoding': 'gzip', 'content-length': String(gzipped.byteLength) },
      plain: { ...json, 'content-length': String(body.byteLength) },
    },
  };
}

/**
 * Prepares each value once, on its first answer: the key is the value itself, so it must not
 * change afterwards (content is read once at start and never edited in memory).
 */
export const preparedJsonCache = (cache: CacheHeaders): ((value: object) => PreparedJson) => oncePerKey((value: object) => prepareJson(value, cache));

/** If-None-Match holds this ETag, or `*` (weak comparison, RFC 9110 §13.1.2). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

function takesGzip(acceptEncoding: string): boolean {
  const accepts = parseAccept(acceptEncoding);
  const named = accepts.find((accept) => accept.type.toLowerCase() === 'gzip') ?? accepts.find((accept) => accept.type === '*');
  return named !== undefined && named.q > 0;
}

/** Browsers send a handful of Accept-Encoding values, each read once; past this many, it starts over. */
const KNOWN_ENCODINGS_LIMIT = 100;
const knownEncodings = new Map<string, boolean>();

/** Accept-Encoding takes gzip: named, or by `*`, with a quality above 0. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (!acceptEncoding) return false;
  let takes = knownEncodings.get(acceptEncoding);
  if (takes === undefined) {
    if (knownEncodings.size >= KNOWN_ENCODINGS_LIMIT) knownEncodings.clear();
    takes = takesGzip(acceptEncoding);
    knownEncodings.set(acceptEncoding, takes);
  }
  return takes;
}

/**
 * Answers a prepared JSON value: 304 when the client holds this version, else the gzipped bytes
 * when gzip is accepted, else the plain ones, each with its header record written at preparation.
 *
 * A Response of its own with plain headers, not c.body(): Hono would build a fetch Headers object
 * for them, which the Node adapter copies back header by header (a third of a content answer's
 * cost). So headers set on the context before the route (c.header) are not sent with it: no
 * middleware in front of the content routes sets any.
 */
export function sendPreparedJson(c: Context, answer: PreparedJson): Response {
  const { headers } = answer;
  if (matchesEtag(c.req.header('if-none-match'), answer.etag)) return new Response(null, { status: 304, headers: headers.notModified });
  if (acceptsGzip(c.req.header('accept-encoding'))) return new Response(answer.gzipped, { status: 200, headers: headers.gzipped });
  return new Response(answer.body, { status: 200, headers: headers.plain });
}
