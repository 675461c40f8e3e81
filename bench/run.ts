// `npm run bench`: throughput and latency of the member API over HTTP, against the real server
// process (`npm start`: the compiled production build) on Postgres, with 16 keep-alive connections. Each
// route's req/s is compared with /healthz of the same run, and /healthz with a bare Hono app. The
// load comes from a separate process on raw sockets (http-load.mjs), and each row also gives the
// answering process's CPU time per request, the figure a busy shared machine moves least.
// Not a test: nothing is asserted; it prints a table and the targets (member routes ≥ 50 % of
// /healthz, content routes ≥ 90 % of it, p99 < 50 ms, /healthz ≥ 70 % of a bare Hono app, RSS ≤ 150 MB on Postgres, ≤ 400 MB on PGlite).
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/candlewise_bench npm run bench
//       a fresh database is created beside the one named (which must exist) and dropped after
//   npm run bench                 the embedded database (PGlite) in a temporary folder
//   npm run bench -- --seconds 10 measure each route for longer (default 6 s in all, after a warm-up)
//   npm run bench -- --cpu-prof DIR   the server writes a V8 CPU profile (.cpuprofile) into DIR when it stops
//   npm run bench -- --only REGEX     only the member routes whose label matches (/healthz and the bare app always)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, summarise, type LoadResult, type LoadSample } from './http-load';
import { becomeMember } from './shop-client';
import { cpuMicros, cpuProfileFlags, freePort, freshPostgres, root, rssMb, startServer, stop, waitUntilUp } from './server-process';

const CONNECTIONS = 16;
const secondsFlag = process.argv.indexOf('--seconds');
const SECONDS = secondsFlag > 0 ? Math.max(1, Number(process.argv[secondsFlag + 1]) || 6) : 6;
const ROUNDS = 4;
const WARM_UP_SECONDS = 1;
const profileFlags = cpuProfileFlags();
const onlyFlag = process.argv.indexOf('--only');
const only = onlyFlag > 0 ? new RegExp(process.argv[onlyFlag + 1] ?? '') : null;

type Member = { cookie: string; guideId: string; strategyId: string; feature: string | null };

/** Signs up and buys the monthly plan with the sandbox's 4242 card, as a buyer does; finds a guide, a strategy and a feature to read. */
async function benchMember(base: string): Promise<Member> {
  const member = await becomeMember(base, `bench-${Date.now()}@example.com`);
  const { guides } = await member.get<{ guides: { id: string; type: string }[] }>('/api/content/guides');
  const { strategies } = await member.get<{ strategies: { id: string }[] }>('/api/content/strategies');
  if (!guides[0] || !strategies[0]) throw new Error('the content folder has no guide or no strategy');
  const product = guides.find((guide) => guide.type === 'product');
  const features = product ? (await member.get<{ features: { id: string }[] }>(`/api/content/guides/${product.id}`)).features : [];
  const feature = product && features[0] ? `${product.id}/features/${features[0].id}` : null;
  return { cookie: member.cookie(), guideId: guides[0].id, strategyId: strategies[0].id, feature };
}

/** A route to load; `pid` is the process that answers it, whose CPU time is counted. */
type Target = { label: string; url: string; pid: number; headers?: Record<string, string> };
type Measured = { label: string; result: LoadResult; cpuPerRequest: number };

/**
 * Warms every target up, then measures them in turns; returns one result per target, in order,
 * with the answering process's CPU time per request: unlike req/s, it hardly moves with what
 * else the shared machine is doing.
 */
async function measureInTurns(targets: Target[]): Promise<Measured[]> {
  const samples: LoadSample[][] = targets.map(() => []);
  const cpu = targets.map(() => 0);
  for (const { url, headers } of targets) await load({ url, headers, connections: CONNECTIONS, seconds: WARM_UP_SECONDS });
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, { url, headers, pid }] of targets.entries()) {
      const before = cpuMicros(pid);
      samples[index]!.push(await load({ url, headers, connections: CONNECTIONS, seconds: SECONDS / ROUNDS }));
      cpu[index]! += cpuMicros(pid) - before;
    }
  }
  return targets.map(({ label }, index) => {
    const result = summarise(samples[index]!);
    return { label, result, cpuPerRequest: cpu[index]! / Math.max(1, result.requests + result.errors) };
  });
}

const work = mkdtempSync(join(tmpdir(), 'candlewise-bench-'));
const database = process.env.DATABASE_URL ? await freshPostgres(process.env.DATABASE_URL, 'candlewise_bench') : null;
let bare: ChildProcess | undefined;
let server: ChildProcess | undefined;
try {
  // the yardstick: measured in the same turns as the shop, idle (and tiny) in between
  const barePort = await freePort();
  bare = spawn(process.execPath, [join(root, 'bench/bare-hono.mjs')], { cwd: root, env: { ...process.env, PORT: String(barePort) }, stdio: 'ignore' });
  await waitUntilUp(bare, `http://127.0.0.1:${barePort}/healthz`);

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  server = startServer(
    port,
    {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      PUBLIC_URL: base,
      DATA_DIR: join(work, 'data'),
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-12',
      // the API alone: no client build is needed to measure it
      CLIENT_DIR: join(work, 'no-client'),
      ...(database ? { DATABASE_URL: database.url } : { DATABASE_URL: '' }),
    },
    join(work, 'server.log'),
    profileFlags,
  );
  await waitUntilUp(server, `${base}/readyz`);
  const startMs = Math.round(performance.now() - started);
  const member = await benchMember(base);
  const headers = { cookie: member.cookie };
  const shop = server.pid!;
  const memberRoutes: Target[] = [
    { label: 'GET /api/site', url: `${base}/api/site`, pid: shop },
    { label: 'GET /api/auth/get-session', url: `${base}/api/auth/get-session`, headers, pid: shop },
    { label: 'GET /api/access', url: `${base}/api/access`, headers, pid: shop },
    { label: 'GET /api/subscription', url: `${base}/api/subscription`, headers, pid: shop },
    { label: 'GET /api/security/alerts', url: `${base}/api/security/alerts`, headers, pid: shop },
    { label: 'GET /api/tradingview/status', url: `${base}/api/tradingview/status`, headers, pid: shop },
    { label: 'GET /api/content/guides', url: `${base}/api/content/guides`, headers, pid: shop },
    { label: 'GET /api/content/guides/:id', url: `${base}/api/content/guides/${member.guideId}`, headers, pid: shop },
    ...(member.feature ? [{ label: 'GET /api/content/guides/:id/features/:id', url: `${base}/api/content/guides/${member.feature}`, headers, pid: shop }] : []),
    { label: 'GET /api/content/strategies', url: `${base}/api/content/strategies`, headers, pid: shop },
    { label: 'GET /api/content/strategies/:id', url: `${base}/api/content/strategies/${member.strategyId}`, headers, pid: shop },
  ];
  const [bareResult, ...results] = await measureInTurns([
    { label: 'bare Hono GET /healthz', url: `http://127.0.0.1:${barePort}/healthz`, pid: bare.pid! },
    { label: 'GET /healthz', url: `${base}/healthz`, pid: shop },
    ...memberRoutes.filter(({ label }) => !only || only.test(label)),
  ]);
  const rss = rssMb(server.pid!);
  const healthz = results[0]!.result.rps;
  const row = ({ label, result, cpuPerRequest }: Measured, reference: number) => ({
    route: label,
    'req/s': Math.round(result.rps),
    'p50 ms': Number(result.p50.toFixed(1)),
    'p99 ms': Number(result.p99.toFixed(1)),
    'vs /healthz': `${Math.round((result.rps / reference) * 100)} %`,
    'CPU µs/req': Math.round(cpuPerRequest),
    errors: result.errors,
  });
  console.log(
    `\n${CONNECTIONS} connections, ${SECONDS} s per route in ${ROUNDS} turns after ${WARM_UP_SECONDS} s warm-up, ${database ? 'Postgres server' : 'embedded PGlite'}, Node ${process.version}`,
  );
  console.table([row(bareResult!, healthz), ...results.map((result) => row(result, healthz))]);
  // the member API: every route after /healthz and /api/site, the session check every page makes included
  const members = results.filter(({ label }) => label !== 'GET /healthz' && label !== 'GET /api/site');
  const slowest = Math.min(...members.map(({ result }) => result.rps));
  const worstP99 = Math.max(...members.map(({ result }) => result.p99));
  console.log(`server ready ${startMs} ms after spawn; RSS after the load ${rss} MB (target ≤ ${database ? 150 : 400} MB)`);
  console.log(`/healthz is ${Math.round((healthz / bareResult!.result.rps) * 100)} % of a bare Hono app (target ≥ 70 %)`);
  if (members.length > 0) console.log(`slowest member route ${Math.round((slowest / healthz) * 100)} % of /healthz (target ≥ 50 %), worst member p99 ${worstP99.toFixed(1)} ms (target < 50 ms)`);
  // issue 48: members read content from memory, so the content routes keep up with /healthz itself
  const content = results.filter(({ label }) => label.startsWith('GET /api/content/'));
  if (content.length > 0) console.log(`slowest content route ${Math.round((Math.min(...content.map(({ result }) => result.rps)) / healthz) * 100)} % of /healthz (target ≥ 90 %)`);
} finally {
  await stop(bare);
  await stop(server);
  await database?.drop();
  rmSync(work, { recursive: true, force: true });
}
