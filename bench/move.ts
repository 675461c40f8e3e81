// `npm run bench:move`: how long `npm run move-to-postgres` takes for a grown shop. Seeds a shop
// on a fresh embedded database (scale-seed.ts, 10,000 members by default), copies it into a fresh
// Postgres database beside DATABASE_URL (created, then dropped), and prints the time and the rows
// per second. Not a test: the copy's own checks (every table's rows counted) are in shop-copy.ts.
//
//   npm run bench:move                        10,000 members
//   npm run bench:move -- --members 100000    the full shop of bench:scale
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import { copyShop } from '../src/server/admin-cli/shop-copy';
import { FULL_SIZE, seedScale } from './scale-seed';
import { freshPostgres } from './server-process';

const at = process.argv.indexOf('--members');
const members = at > 0 ? Math.max(1_000, Number(process.argv[at + 1]) || 10_000) : 10_000;
const size = {
  members,
  ordersPerMember: FULL_SIZE.ordersPerMember,
  events: Math.round((FULL_SIZE.events * members) / FULL_SIZE.members),
  auditEntries: Math.round((FULL_SIZE.auditEntries * members) / FULL_SIZE.members),
};
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

const dataDir = mkdtempSync(join(tmpdir(), 'candlewise-move-'));
const target = await freshPostgres(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test', 'bench_move');
try {
  const source = await openDatabase({ kind: 'pglite', dataDir });
  try {
    await migrate(source.db);
    log(`seeding ${members.toLocaleString('en')} members on PGlite`);
    await seedScale({ query: (text) => source.db.execute(text) }, size, log);
    const destination = await openDatabase({ kind: 'postgres', url: target.url });
    try {
      const started = performance.now();
      const copied = await copyShop(source.db, destination.db);
      const seconds = (performance.now() - started) / 1000;
      const rows = copied.reduce((sum, table) => sum + table.rows, 0);
      const largest = [...copied].sort((a, b) => b.rows - a.rows).slice(0, 4).map(({ table, rows: count }) => `${table} ${count.toLocaleString('en')}`);
      console.log(`\nmove: ${members.toLocaleString('en')} members, ${rows.toLocaleString('en')} rows in ${copied.length} tables in ${seconds.toFixed(1)} s (${Math.round(rows / seconds).toLocaleString('en')} rows/s); largest: ${largest.join(', ')}; load average ${loadavg().map((load) => load.toFixed(1)).join(' ')}`);
    } finally {
      await destination.close();
    }
  } finally {
    await source.close();
  }
} finally {
  await target.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
