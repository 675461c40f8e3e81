import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The file an import names, as a path without extension: './kit' or '@server/test/kit'. */
function importedPath(fromFile: string, specifier: string, serverRoot: string): string | null {
  if (specifier.startsWith('.')) return resolve(dirname(fromFile), specifier).replace(/\.ts$/, '');
  if (specifier.startsWith('@server/')) return resolve(serverRoot, specifier.slice('@server/'.length)).replace(/\.ts$/, '');
  return null;
}

/**
 * The server test files that reach a test database, directly or through any helper that does:
 * only these prove anything on a second database engine, so the Postgres server run (npm test's
 * second server pass) leaves out the rest — pure logic, child-process and HTTP-client suites that
 * would only run again unchanged. Read from the imports, so a new suite joins by what it uses.
 */
export function databaseSuites(serverRoot: string, projectRoot: string): string[] {
  const files = sourceFiles(serverRoot);
  const imports = new Map(
    files.map((file) => {
      const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => importedPath(file, match[1] ?? '', serverRoot));
      return [file, targets.filter((target): target is string => target !== null)];
    }),
  );
  const reaching = new Set(files.filter((file) => file.endsWith('/test-database.ts')).map((file) => file.replace(/\.ts$/, '')));
  let grew = true;
  while (grew) {
    grew = false;
    for (const [file, targets] of imports) {
      const path = file.replace(/\.ts$/, '');
      if (!reaching.has(path) && targets.some((target) => reaching.has(target))) {
        reaching.add(path);
        grew = true;
      }
    }
  }
  return files.filter((file) => file.endsWith('.test.ts') && reaching.has(file.replace(/\.ts$/, ''))).map((file) => relative(projectRoot, file));
}
