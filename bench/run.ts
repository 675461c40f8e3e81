// `npm run bench`: in-process throughput and latency of the hot API paths on an embedded
// database (PGlite) — the figures a vendor cares about when a launch sends traffic.
// Not a test: nothing is asserted; it prints a table.
import { PGlite } from '@electric-sql/pglite';
import { createApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import { buildDependencies } from '../src/server/dependencies';
import { createLogger } from '../src/server/logger';
import { scenarios } from './scenarios';

const ITERATIONS = Number(process.argv[2] ?? 300);

const pglite = await PGlite.create();
const database = await openDatabase({ kind: 'pglite', dataDir: null, pglite });
await migrate(database.db);
const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
const deps = buildDependencies(config, database, createLogger('silent'), {
  secret: 'bench-secret-bench-secret-bench-secret-12',
  mail: { kind: 'outbox', send: async () => undefined },
});
const app = await createApp(deps);
// Each request comes from its own socket address, like a crowd of visitors (the per-address
// limits would otherwise refuse a single bench client after a few checkouts).
const inProcess = app.request.bind(app);
let visitor = 0;
app.request = ((input, init) => {
  visitor += 1;
  const remoteAddress = `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`;
  return inProcess(input, init, { incoming: { socket: { remoteAddress, remoteFamily: 'IPv4' } } });
}) as typeof app.request;

type Row = { scenario: string; 'ops/s': number; 'p50 ms': number; 'p95 ms': number; 'p99 ms': number };
const rows: Row[] = [];
for (const scenario of scenarios) {
  const run = await scenario.prepare(app);
  for (let i = 0; i < 20; i++) await run(i); // warm-up
  const timings: number[] = [];
  const started = performance.now();
  for (let i = 0; i < ITERATIONS; i++) {
    const t0 = performance.now();
    await run(i);
    timings.push(performance.now() - t0);
  }
  const total = performance.now() - started;
  timings.sort((a, b) => a - b);
  const at = (q: number) => Number(timings[Math.min(timings.length - 1, Math.floor(q * timings.length))]!.toFixed(2));
  rows.push({ scenario: scenario.name, 'ops/s': Math.round((ITERATIONS / total) * 1000), 'p50 ms': at(0.5), 'p95 ms': at(0.95), 'p99 ms': at(0.99) });
}
console.table(rows);
console.log(`${ITERATIONS} iterations per scenario, one process, PGlite in memory, Node ${process.version}`);
await database.close();
