import { createHash, createHmac } from 'node:crypto';
import type { ContentStorage } from './content-storage';

// The studio's images in an S3-compatible bucket (AWS S3, Cloudflare R2, MinIO, Backblaze B2…):
// two calls, PUT and GET of an object, signed with AWS Signature Version 4 and path-style URLs
// (`{endpoint}/{bucket}/{key}`), which every such service accepts. No SDK for two requests.

export type S3Settings = {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Prepended to every key, e.g. `content/`. */
  prefix: string;
};

const sha256Hex = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** AWS's URI encoding: every byte but A–Z a–z 0–9 - . _ ~ as %XX; `/` kept in paths. */
const encodePath = (path: string) =>
  path
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');

/**
 * The Authorization header of a request (SigV4, header-based). `headers` must hold every header
 * to sign, host and x-amz-date and x-amz-content-sha256 included; names are lower-cased here.
 */
export function signV4(input: {
  method: string;
  url: URL;
  headers: Record<string, string>;
  payloadHash: string;
  region: string;
  service: string;
  accessKeyId: string;
  secretAccessKey: string;
}): string {
  const amzDate = input.headers['x-amz-date'] ?? '';
  const date = amzDate.slice(0, 8);
  const names = Object.keys(input.headers)
    .map((name) => name.toLowerCase())
    .sort();
  const lower = Object.fromEntries(Object.entries(input.headers).map(([name, value]) => [name.toLowerCase(), value]));
  const canonicalHeaders = names.map((name) => `${name}:${(lower[name] ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const query = [...input.url.searchParams]
    .map(([key, value]) => [encodeURIComponent(key), encodeURIComponent(value)])
    .sort(([a = ''], [b = '']) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const canonicalRequest = [input.method, encodePath(decodeURIComponent(input.url.pathname)), query, canonicalHeaders, signedHeaders, input.payloadHash].join('\n');
  const scope = `${date}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${input.secretAccessKey}`, date), input.region), input.service), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
}

export function createS3ContentStorage(settings: S3Settings, options: { fetch?: typeof fetch; now?: () => Date } = {}): ContentStorage {
  const send = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());

  const request = async (method: 'GET' | 'PUT', name: string, body?: Uint8Array, contentType?: string) => {
    const url = new URL(`${settings.endpoint.replace(/\/+$/, '')}/${settings.bucket}/${settings.prefix}${name}`);
    const payloadHash = sha256Hex(body ?? '');
    const headers: Record<string, string> = {
      host: url.host,
      'x-amz-date': now().toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, ''),
      'x-amz-content-sha256': payloadHash,
      ...(contentType ? { 'content-type': contentType } : {}),
    };
    const authorization = signV4({ method, url, headers, payloadHash, service: 's3', region: settings.region, accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey });
    const { host: _host, ...sent } = headers;
    return send(url, { method, headers: { ...sent, authorization }, body: body ? Buffer.from(body) : undefined, signal: AbortSignal.timeout(15_000) });
  };

  return {
    kind: 's3',
    put: async (name, bytes, contentType) => {
      const response = await request('PUT', name, bytes, contentType);
      if (!response.ok) throw new Error(`the bucket refused the upload of ${name}: HTTP ${response.status} ${(await response.text()).slice(0, 200)}`);
    },
    get: async (name) => {
      const response = await request('GET', name);
      if (response.status === 404) return undefined;
      if (!response.ok) throw new Error(`the bucket did not give ${name}: HTTP ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    },
  };
}
