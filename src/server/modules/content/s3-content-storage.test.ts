import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3ContentStorage, signV4 } from './s3-content-storage';

describe('the S3 storage adapter', () => {
  it("signs as AWS's own SigV4 example (GET object with a range)", () => {
    const url = new URL('https://examplebucket.s3.amazonaws.com/test.txt');
    const authorization = signV4({
      method: 'GET',
      url,
      headers: {
        host: 'examplebucket.s3.amazonaws.com',
        range: 'bytes=0-9',
        'x-amz-content-sha256': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        'x-amz-date': '20130524T000000Z',
      },
      payloadHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      region: 'us-east-1',
      service: 's3',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    });
    expect(authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  // a bucket of one process: PUT keeps the bytes, GET gives them back, anything else is 404
  const objects = new Map<string, Buffer>();
  const seen: { method: string; url: string; authorization: string }[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', authorization: String(request.headers.authorization) });
      if (request.method === 'PUT') {
        objects.set(request.url ?? '', Buffer.concat(chunks));
        response.writeHead(200).end();
        return;
      }
      const object = objects.get(request.url ?? '');
      if (!object) response.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>');
      else response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(object);
    });
  });
  let endpoint = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('puts and gets an object path-style under the prefix, signed; a missing one is undefined', async () => {
    const storage = createS3ContentStorage({ endpoint, bucket: 'shop', region: 'auto', accessKeyId: 'key', secretAccessKey: 'secret', prefix: 'content/' });
    await storage.put('chart.png', new Uint8Array([1, 2, 3]), 'image/png');
    expect(await storage.get('chart.png')).toEqual(new Uint8Array([1, 2, 3]));
    expect(await storage.get('missing.png')).toBeUndefined();
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual(['PUT /shop/content/chart.png', 'GET /shop/content/chart.png', 'GET /shop/content/missing.png']);
    expect(seen[0]?.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=key\/\d{8}\/auto\/s3\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/);
  });
});
