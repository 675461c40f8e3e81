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
    return names.map((name) => {
      const dir = mkdtempSync(join(tmpdir(), `candlewise-e2e-${name}-`));
      cpSync(template, dir, { recursive: true });
      return dir;
    });
  } finally {
    rmSync(template, { recursive: true, force: true });
  }
}

/** Removes the folders emptyDatabases made (a name left empty, in a process that made none, is skipped). */
export function removeDatabases(dirs: string[]): void {
  for (const dir of dirs) if (dir) rmSync(dir, { recursive: true, force: true });
}
