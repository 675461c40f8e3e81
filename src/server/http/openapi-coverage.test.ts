import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test-support/test-app';

type PathItem = Record<string, { summary?: string; responses?: Record<string, unknown> }>;
type OpenApiDocument = { paths: Record<string, PathItem> };

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** `GET /api/members/:id` as the document names it: `get /api/members/{id}`. */
const operationKey = (method: string, path: string) => `${method.toLowerCase()} ${path.replace(/:(\w+)/g, '{$1}')}`;

let t: TestApp;
let mounted: Set<string>;
let documented: Map<string, PathItem[string]>;
beforeAll(async () => {
  // The test app mounts the sandbox routes and the mailbox too (sandbox payments, outbox mail).
  t = await createTestApp();
  // ALL entries are middleware and the API's 404 fallback, not operations; a route with its
  // describeRoute middleware is listed once for each.
  mounted = new Set(t.app.routes.filter((route) => route.method !== 'ALL').map((route) => operationKey(route.method, route.path)));
  const document = (await (await t.request('/api/openapi.json')).json()) as OpenApiDocument;
  documented = new Map(
    Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.has(method))
        .map(([method, operation]) => [`${method} ${path}`, operation] as const),
    ),
  );
});
afterAll(async () => {
  await t?.close();
});

describe('the OpenAPI document against the mounted routes', () => {
  it('has every route mounted under /api', () => {
    const api = [...mounted].filter((key) => key.split(' ')[1]!.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(50);
    expect(api.filter((key) => !documented.has(key))).toEqual([]);
  });

  it('has no operation the app does not mount', () => {
    expect([...documented.keys()].filter((key) => !mounted.has(key))).toEqual([]);
  });

  it('gives each operation a summary, a 200 and the 4XX error answer', () => {
    for (const [key, operation] of documented) {
      expect(operation.summary, key).toBeTruthy();
      expect(Object.keys(operation.responses ?? {}), key).toEqual(expect.arrayContaining(['200', '4XX']));
    }
  });
});
