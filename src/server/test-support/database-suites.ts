import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { importGraph, importersOf } from '../../../scripts/import-graph.mjs';

/**
 * Suites that open a test database only because the app needs one, whose assertions stop before
 * any query the engine could answer differently (the same SQL on the same Postgres code, sent in
 * the same order): a second engine would run them again unchanged. Each says why.
 */
const ENGINE_NEUTRAL_SUITES: Record<string, string> = {
  'src/server/security/attacks-hostile-input.test.ts': 'body limits and input validation refuse before any query',
  'src/server/security/attacks-sandbox-mailbox.test.ts': 'who may read the outbox is decided by configuration and the session',
  'src/server/http/spa.test.ts': 'index.html and its content security policy',
  'src/server/http/compression.test.ts': 'which answers are compressed',
  'src/server/http/openapi-coverage.test.ts': 'the OpenAPI document against the mounted routes',
  'src/server/http/public-address.test.ts': 'origins and return links from PUBLIC_URL',
};

/**
 * The server test files that reach a test database, directly or through any helper that does:
 * only these prove anything on a second database engine, so the Postgres server run (npm test's
 * second server pass) leaves out the rest — pure logic, child-process and HTTP-client suites that
 * would only run again unchanged — and the engine-neutral suites above. Read from the imports, so
 * a new suite joins by what it uses.
 */
export function databaseSuites(srcRoot: string, projectRoot: string): string[] {
  const missing = Object.keys(ENGINE_NEUTRAL_SUITES).filter((file) => !existsSync(join(projectRoot, file)));
  if (missing.length > 0) throw new Error(`ENGINE_NEUTRAL_SUITES names files that do not exist: ${missing.join(', ')}`);
  const graph = importGraph(srcRoot);
  const databases = [...graph.keys()].filter((file) => file.endsWith('/test-support/test-database.ts'));
  return [...importersOf(graph, databases)]
    .filter((file) => file.endsWith('.test.ts') && file.includes('/server/'))
    .map((file) => relative(projectRoot, file))
    .filter((file) => !(file in ENGINE_NEUTRAL_SUITES));
}
