// The server's source files as the one-reader tests read them (which module may name which table):
// every .ts/.tsx under src/server but tests, by path relative to src/server, with their text.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROJECT_ROOT } from '../project-root';

const SERVER = join(PROJECT_ROOT, 'src/server');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The server's source files whose path starts with none of `exempt` (e.g. 'db/schema/'). */
export function serverSources(exempt: readonly string[]): { path: string; text: string }[] {
  return sourceFiles(SERVER)
    .map((path) => ({ path: relative(SERVER, path), text: readFileSync(path, 'utf8') }))
    .filter((file) => !exempt.some((prefix) => file.path.startsWith(prefix)));
}
