// `npm run bench:attacks`: the anonymous attacks that used to cost the server most, against two
// instances of the compiled server in production mode on one Postgres, as a shop runs behind a
// load balancer. Not a test: it prints what it measured, the targets, and a one-line summary
// (exit code 1 when a target is missed).
//
//   (a) 200 bodies of 30,000 nested arrays on sign-in, sign-up and request-password-reset, spread
//       over both instances, while /healthz is asked on each: its latency stays under 100 ms
//       (max and p99) and each instance keeps at most 50 MB more RSS once idle again;
//   (b) 10,000 anonymous session checks, each with a new 7 KB junk cookie and 7 KB junk query:
//       each instance keeps at most 50 MB more RSS once idle again (right after, V8's heap is
//       still swollen with the burst's garbage; both readings are printed).
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:attacks   (the default)
//       a fresh database is created beside the one named (which must exist) and dropped after
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuMicros, freePort, freshPostgres, rssMb, startServer, stop, waitUntilUp } from './server-process';

const NESTED_BODIES = 200;
const NESTED_LEVELS = 30_000;
const NESTED_IN_FLIGHT = 8;
const JUNK_REQUESTS = 10_000;
const JUNK_IN_FLIGHT = 16;
const JUNK_BYTES = 7 * 1024;
const HEALTHZ_TARGET_MS = 100;
const RSS_TARGET_MB = 50;
// What an attack leaves is read once the instances have been idle: V8 grows its heap under a
// burst of garbage and hands the pages back only when allocation has calmed (its memory reducer,
// 8 s or more after the last collection), so a reading taken at once measures the burst, not
// what is kept. Each reading is the lowest RSS seen over SETTLE_MS of idling.
const SETTLE_MS = 45_000;
const AUTH_ROUTES = ['/api/auth/sign-in/email', '/api/auth/sign-up/email', '/api/auth/request-password-reset'];
// the shop's sign-in cookie (BRAND_SLUG's default), so junk also reaches the session lookup
const SESSION_COOKIE = 'candlewise.session_token';

type Instance = { base: string; child: ChildProcess; log: string };

const randomAddress = () => `${1 + Math.floor(Math.random() * 222)}.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
const junk = () => randomBytes(Math.ceil((JUNK_BYTES * 3) / 4)).toString('base64url').slice(0, JUNK_BYTES);
const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
const percentile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

/** Runs `count` jobs with at most `inFlight` at a time. */
async function pool(count: number, inFlight: number, job: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < count) await job(next++);
  }));
}

function tally(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => a - b).map(([status, count]) => `${count}× ${status}`).join(', ');
}

/** The health check in a process of its own (health-probe.mjs), until `stop()` gives its figures. */
async function probeHealth(instances: Instance[]) {
  const probe = fork(fileURLToPath(new URL('health-probe.mjs', import.meta.url)), instances.map(({ base }) => base));
  await new Promise<void>((done) => probe.once('message', () => done()));
  return {
    stop: async () => {
      const answer = new Promise<{ latencies: number[] }>((done) => probe.once('message', (message) => done(message as { latencies: number[] })));
      probe.send('stop');
      const sorted = (await answer).latencies.sort((a, b) => a - b);
      return { count: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted.at(-1) ?? Number.NaN };
    },
  };
}

async function nestedJsonFlood(instances: Instance[], count: number) {
  const body = `${'['.repeat(NESTED_LEVELS)}${']'.repeat(NESTED_LEVELS)}`;
  const statuses: number[] = [];
  await pool(count, NESTED_IN_FLIGHT, async (index) => {
    const { base } = instances[index % instances.length]!;
    const path = AUTH_ROUTES[Math.floor(index / instances.length) % AUTH_ROUTES.length]!;
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { origin: base, 'content-type': 'application/json', 'x-forwarded-for': randomAddress() },
      body,
    });
    await response.arrayBuffer();
    statuses.push(response.status);
  });
  return statuses;
}

async function junkSessionChecks(instances: Instance[], count: number) {
  const statuses: number[] = [];
  await pool(count, JUNK_IN_FLIGHT, async (index) => {
    const { base } = instances[index % instances.length]!;
    // half name a session token that does not exist, half only carry junk
    const cookie = index % 2 ? `${SESSION_COOKIE}=${junk()}` : `junk=${junk()}`;
    const response = await fetch(`${base}/api/auth/get-session?junk=${junk()}`, { headers: { cookie, 'x-forwarded-for': randomAddress() } });
    await response.arrayBuffer();
    statuses.push(response.status);
  });
  return statuses;
}

type Memory = { label: string; rss: number[] };
const memory = (label: string, instances: Instance[]): Memory => ({ label, rss: instances.map(({ child }) => rssMb(child.pid!)) });

/** The lowest RSS of each instance while they idle for SETTLE_MS. */
async function settledMemory(label: string, instances: Instance[]): Promise<Memory> {
  const lowest = memory(label, instances);
  for (let waited = 0; waited < SETTLE_MS; waited += 1000) {
    await pause(1000);
    memory(label, instances).rss.forEach((rss, index) => (lowest.rss[index] = Math.min(lowest.rss[index]!, rss)));
  }
  return lowest;
}
const grewBy = (before: Memory, after: Memory) => after.rss.map((rss, index) => rss - before.rss[index]!);
const cpu = (instances: Instance[]) => instances.reduce((sum, { child }) => sum + cpuMicros(child.pid!), 0);

const work = mkdtempSync(join(tmpdir(), 'candlewise-attacks-'));
const database = await freshPostgres(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test', 'candlewise_attacks');
const instances: Instance[] = [];
let failed = true;
try {
  // one after the other: the first builds the server if it is stale and migrates the database
  for (const name of ['a', 'b']) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const log = join(work, `server-${name}.log`);
    const child = startServer(
      port,
      {
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        PUBLIC_URL: base,
        DATABASE_URL: database.url,
        AUTH_SECRET: 'attacks-secret-attacks-secret-attacks-secret',
        // behind a trusted proxy every request may come from another address, the worst case
        TRUST_PROXY: '127.0.0.1',
        DATA_DIR: join(work, `data-${name}`),
        // the API alone: no client build is needed
        CLIENT_DIR: join(work, 'no-client'),
      },
      log,
    );
    instances.push({ base, child, log });
    await waitUntilUp(child, `${base}/readyz`);
  }
  const atStart = memory('at start', instances);

  // the first requests of a kind load code and fill caches in any server: not what is measured
  await nestedJsonFlood(instances, 12);
  await junkSessionChecks(instances, 200);
  await pause(2000);

  const idleProbe = await probeHealth(instances);
  await pause(2000);
  const idle = await idleProbe.stop();

  const beforeNested = await settledMemory('before (a), idle', instances);
  const cpuBeforeNested = cpu(instances);
  const probe = await probeHealth(instances);
  const nestedStarted = performance.now();
  const nestedStatuses = await nestedJsonFlood(instances, NESTED_BODIES);
  const nestedSeconds = (performance.now() - nestedStarted) / 1000;
  const health = await probe.stop();
  const nestedCpuPerRequest = (cpu(instances) - cpuBeforeNested) / NESTED_BODIES;
  const rightAfterNested = memory('right after (a)', instances);
  const afterNested = await settledMemory('after (a), idle', instances);

  const cpuBeforeJunk = cpu(instances);
  const junkStarted = performance.now();
  const junkStatuses = await junkSessionChecks(instances, JUNK_REQUESTS);
  const junkSeconds = (performance.now() - junkStarted) / 1000;
  const junkCpuPerRequest = (cpu(instances) - cpuBeforeJunk) / JUNK_REQUESTS;
  const rightAfterJunk = memory('right after (b)', instances);
  // far longer than MEMBER_CACHE_MS: what a cache may keep has expired by now
  const afterJunk = await settledMemory('after (b), idle', instances);

  const nestedGrowth = grewBy(beforeNested, afterNested);
  const junkGrowth = grewBy(afterNested, afterJunk);
  const mb = (values: number[]) => values.map((value) => `${value} MB`).join(' / ');
  const ms = (value: number) => `${value.toFixed(1)} ms`;

  console.log(`\nTwo production instances on one Postgres, Node ${process.version}; RSS 'idle' is the lowest over ${SETTLE_MS / 1000} s without requests`);
  console.table([atStart, beforeNested, rightAfterNested, afterNested, rightAfterJunk, afterJunk].map(({ label, rss }) => ({ when: label, 'RSS a': `${rss[0]} MB`, 'RSS b': `${rss[1]} MB` })));
  console.log(`/healthz when idle: ${idle.count} checks, p50 ${ms(idle.p50)}, p99 ${ms(idle.p99)}, max ${ms(idle.max)}`);
  console.log(
    `(a) ${NESTED_BODIES} bodies of ${NESTED_LEVELS.toLocaleString('en')} nested arrays (${Math.round((NESTED_LEVELS * 2) / 1024)} KB) over ${AUTH_ROUTES.length} auth routes, ${NESTED_IN_FLIGHT} at a time: ${tally(nestedStatuses)} in ${nestedSeconds.toFixed(1)} s, at most ${Math.round(nestedCpuPerRequest)} µs of server CPU each (the instances' CPU over the flood, /healthz included)`,
  );
  console.log(`    /healthz meanwhile: ${health.count} checks, p50 ${ms(health.p50)}, p99 ${ms(health.p99)}, max ${ms(health.max)} (target < ${HEALTHZ_TARGET_MS} ms); RSS kept ${mb(nestedGrowth)} (target ≤ ${RSS_TARGET_MB} MB)`);
  console.log(
    `(b) ${JUNK_REQUESTS.toLocaleString('en')} anonymous session checks with a ${JUNK_BYTES / 1024} KB junk cookie and query, ${JUNK_IN_FLIGHT} at a time: ${tally(junkStatuses)} in ${junkSeconds.toFixed(1)} s, ${Math.round(junkCpuPerRequest)} µs of server CPU each; RSS kept ${mb(junkGrowth)} (target ≤ ${RSS_TARGET_MB} MB)`,
  );

  const misses = [
    ...(nestedStatuses.every((status) => status === 400) ? [] : ['a nested body was not refused with 400']),
    ...(health.max < HEALTHZ_TARGET_MS && health.p99 < HEALTHZ_TARGET_MS ? [] : [`/healthz took up to ${ms(health.max)}`]),
    ...(nestedGrowth.every((growth) => growth <= RSS_TARGET_MB) ? [] : [`RSS kept ${mb(nestedGrowth)} after (a)`]),
    ...(junkStatuses.every((status) => status === 200) ? [] : ['a session check did not answer 200']),
    ...(junkGrowth.every((growth) => growth <= RSS_TARGET_MB) ? [] : [`RSS kept ${mb(junkGrowth)} after (b)`]),
  ];
  failed = misses.length > 0;
  console.log(
    failed
      ? `MISSED: ${misses.join('; ')}`
      : `OK: nested JSON refused with 400, /healthz max ${ms(health.max)} p99 ${ms(health.p99)}, RSS +${Math.max(...nestedGrowth)} MB; 10,000 junk session checks RSS +${Math.max(...junkGrowth)} MB`,
  );
} catch (error) {
  console.error(error);
  for (const { log } of instances) console.error(`--- ${log}\n${readFileSync(log, 'utf8').split('\n').slice(-20).join('\n')}`);
} finally {
  for (const { child } of instances) await stop(child);
  await database.drop();
  rmSync(work, { recursive: true, force: true });
  process.exitCode = failed ? 1 : 0;
}
