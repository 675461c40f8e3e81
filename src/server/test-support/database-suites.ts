import { relative } from 'node:path';
import { importGraph, importersOf } from '../../../scripts/import-graph.mjs';

/**
 * The server test files that reach a test database, directly or through any helper that does:
 * only these prove anything on a second database engine, so the Postgres server run (npm test's
 * second server pass) leaves out the rest — pure logic, child-process and HTTP-client suites that
 * would only run again unchanged. Read from the imports, so a new suite joins by what it uses.
 */
export function databaseSuites(srcRoot: string, projectRoot: string): string[] {
  const graph = importGraph(srcRoot);
  const databases = [...graph.keys()].filter((file) => file.endsWith('/test-support/test-database.ts'));
  return [...importersOf(graph, databases)].filter((file) => file.endsWith('.test.ts') && file.includes('/server/')).map((file) => relative(projectRoot, file));
}
