import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A folder for each of the journeys' servers holding an empty, migrated embedded database, copied
 * from one made here: a server started on an empty folder runs initdb and every migration itself,
 * about 8 of the 13.6 s of CPU it takes to be ready, once for each server. Starting on an empty
 * folder is main.test.ts's to prove.
 */
export async function emptyDatabases(names: string[]): Promise<string[]> {
  const template = mkdtempSync(join(tmpdir(), 'candlewise-e2e-template-'));
  try {
    const [{ openDatabase }, { migrate }] = await Promise.all([import('../src/server/db/client.ts'), import('../src/server/db/migrate.ts')]);
    const database = await openDatabase({ kind: 'pglite', dataDir: template });
    await migrate(database.db);
    await database.close();
    const dirs = names.map((name) => {
      const dir = mkdtempSync(join(tmpdir(), `candlewise-e2e-${name}-`));
      cpSync(template, dir, { recursive: true });
      return dir;
    });
    // they go with the process that made them (Playwright's runner, its servers stopped by then):
    // every run left three folders of 45 MB in /tmp
    process.once('exit', () => {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    });
    return dirs;
  } finally {
    rmSync(template, { recursive: true, force: true });
  }
}
