// `npm run bench:chaos`: the sale's burst (scale-burst.ts) against the real server process, with
// the TradingView-shaped server throttling (429 + Retry-After) and failing 5 % of calls, and one
// fault in the middle of it, three times over:
//   kill9       two instances on one database, buyers spread over both; one is killed with
//               SIGKILL once a third of the purchases are paid and started again 3 s later
//   pg-restart  the database server (a throwaway cluster of the bench's own, never the shared one)
//               stops with every connection cut, stays down 5 s, and starts again
//   tv-expiry   TradingView refuses the vendor's session cookie for 20 s, then accepts it again
// Buyers whose request died or was answered 5xx try again, as a browser's user does. Afterwards,
// per fault: one order, one receipt and one finish-setup mail per purchase, each claimed member
// granted once and given the VIP role in the sandbox Discord once connected; how long after the
// recovery grants, mails and roles went on; the answers buyers met.
// Not a test: it prints what it measured; the last line is for scripts, and the exit code is 1
// when something was lost or duplicated.
//
//   npm run bench:chaos                     all three faults, 200 buyers each
//   npm run bench:chaos -- --buyers 600 --only kill9,tv-expiry
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { FAKE_SESSION, startFakeTradingView, type FakeTradingView } from '../src/server/test-support/fake-tradingview-server';
import { burstUsername, runBurst, type BurstResult } from './scale-burst';
import { startServer, stop, waitUntilUp } from './server-process';
import { startThrowawayPostgres } from './throwaway-postgres';

const FAULTS = ['kill9', 'pg-restart', 'tv-expiry'] as const;
type Fault = (typeof FAULTS)[number];

const flag = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const BUYERS = Math.max(30, Number(flag('buyers')) || 200);
const ADDRESSES = 30;
const only = new Set((flag('only') ?? FAULTS.join(',')).split(','));
const faults = FAULTS.filter((fault) => only.has(fault));
/** The ports this bench may use: the shop's instances, and the throwaway Postgres. */
const SHOP_PORTS = [3380, 3381];
const POSTGRES_PORT = 5440;
const SCRIPTS = ['PUB;chaosBenchPro01', 'PUB;chaosBenchSmc02'];
const TRADINGVIEW = { callsPerSecond: 20, failureRate: 0.05 };
/** The fault strikes once this share of the buyers has paid (tv-expiry: has named a TradingView username). */
const STRIKE_AT = 1 / 3;
const KILLED_FOR_MS = 3_000;
const POSTGRES_DOWN_MS = 5_000;
const SESSION_EXPIRED_MS = 20_000;
/** A buyer retries for this long before giving up (a person reloading a page that failed). */
const PATIENCE_MS = 120_000;
const MAIL_DEADLINE_MS = 3 * 60_000;

const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${line}`);
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

type Instance = { port: number; base: string; child: ChildProcess; logFile: string };

type Outcome = {
  fault: Fault;
  burst: BurstResult;
  /** What the fault did, in words, and when the shop was whole again (database clock). */
  what: string;
  recoveredAt: Date;
  /** Seconds after the recovery: the first and last grant recorded, the first and last mail sent. */
  grants: { first: number | null; last: number | null };
  mails: { first: number | null; last: number | null; unsent: number };
  /** Discord role passes finished after the recovery (discord_members synced). */
  roles: { first: number | null; last: number | null };
  /** Sandbox events never delivered, deliveries that failed and went back, events applied. */
  events: { total: number; undelivered: number; failedDeliveries: number; processed: number };
  /** Answers a buyer met and tried again after, by status ('down': no answer at all). */
  retried: Record<string, number>;
  /** Server log lines of failures nobody expected, and instances that died by themselves. */
  unhandled: number;
  crashed: number;
  /** Grants not done when the burst's deadline came: rows still in the queue, by what failed last. */
  queued: Record<string, number>;
  /** tv-expiry: grant attempts counted while the session was refused, TradingView calls meanwhile. */
  expiry?: { attemptsBurned: number; callsWhileExpired: number; failedRows: number };
};

const cluster = startThrowawayPostgres(POSTGRES_PORT);
const work = mkdtempSync(join(tmpdir(), 'candlewise-chaos-'));
const clientDir = join(work, 'client');
mkdirSync(clientDir);
writeFileSync(join(clientDir, 'index.html'), '<!doctype html><html><head><title>shop</title></head><body><div id="root"></div></body></html>');

async function freshDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(cluster.url);
  url.pathname = `/${name}`;
  return url.toString();
}

function shopEnv(databaseUrl: string, tradingView: FakeTradingView, dataDir: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    PUBLIC_URL: `http://127.0.0.1:${SHOP_PORTS[0]}`,
    DATA_DIR: dataDir,
    AUTH_SECRET: 'chaos-secret-chaos-secret-chaos-secret-123',
    CLIENT_DIR: clientDir,
    TRUST_PROXY: '127.0.0.1',
    OPERATOR_REQUIRE_2FA: 'false',
    TRADINGVIEW_BASE_URL: tradingView.baseUrl,
    TRADINGVIEW_SESSION_ID: FAKE_SESSION.sessionId,
    TRADINGVIEW_SESSION_SIGN: FAKE_SESSION.sessionSign,
    TRADINGVIEW_SCRIPT_IDS: SCRIPTS.join(','),
    DATABASE_URL: databaseUrl,
  };
}

async function launch(port: number, env: Record<string, string>, logFile: string): Promise<Instance> {
  const child = startServer(port, env, logFile);
  const base = `http://127.0.0.1:${port}`;
  await waitUntilUp(child, `${base}/readyz`);
  return { port, base, child, logFile };
}

/** Resolves once `table` holds `count` rows (errors while the database is away are waited out). */
async function whenRows(db: pg.Pool, table: 'orders' | 'tradingview_grants', count: number): Promise<void> {
  for (;;) {
    const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`).then(({ rows }) => rows[0]!.n, () => 0);
    if (rows >= count) return;
    await sleep(200);
  }
}

async function databaseNow(db: pg.Pool): Promise<Date> {
  for (;;) {
    const now = await db.query<{ now: Date }>('SELECT now()').then(({ rows }) => rows[0]!.now, () => null);
    if (now) return now;
    await sleep(200);
  }
}

const countLines = (file: string, message: string) => readFileSync(file, 'utf8').split('\n').filter((line) => line.includes(`"msg":"${message}`)).length;

async function grantAttempts(db: pg.Pool): Promise<{ attempts: number; failing: number }> {
  const { rows: [row] } = await db.query<{ attempts: number; failing: number }>(
    `SELECT coalesce(sum(attempts), 0)::int AS attempts, count(*) FILTER (WHERE status NOT IN ('pending', 'granted', 'revoked'))::int AS failing FROM tradingview_grants`,
  );
  return row!;
}

/** The fault itself, struck in the middle of the burst; resolves when the shop is whole again. */
async function strike(fault: Fault, context: { db: pg.Pool; instances: Instance[]; env: Record<string, string>; tradingView: FakeTradingView }, outcome: Partial<Outcome>): Promise<void> {
  const { db, instances, env, tradingView } = context;
  // the session matters once grants are queued; the other faults strike among the payments
  await whenRows(db, fault === 'tv-expiry' ? 'tradingview_grants' : 'orders', Math.ceil(BUYERS * STRIKE_AT));
  if (fault === 'kill9') {
    const victim = instances[1]!;
    victim.child.kill('SIGKILL');
    log(`kill -9 of the instance on :${victim.port} (pid ${victim.child.pid}); back in ${KILLED_FOR_MS / 1000} s`);
    await sleep(KILLED_FOR_MS);
    instances[1] = await launch(victim.port, env, victim.logFile);
    outcome.what = `instance :${victim.port} killed (SIGKILL) and started again`;
  } else if (fault === 'pg-restart') {
    log(`Postgres: fast shutdown, down ${POSTGRES_DOWN_MS / 1000} s, start`);
    await cluster.restart(POSTGRES_DOWN_MS);
    outcome.what = `Postgres restarted (fast shutdown, ${POSTGRES_DOWN_MS / 1000} s down)`;
  } else {
    const before = await grantAttempts(db);
    const callsBefore = tradingView.requests.length;
    tradingView.sessionExpired = '401';
    log(`TradingView refuses the session cookie for ${SESSION_EXPIRED_MS / 1000} s`);
    await sleep(SESSION_EXPIRED_MS);
    const after = await grantAttempts(db);
    outcome.expiry = { attemptsBurned: after.attempts - before.attempts, callsWhileExpired: tradingView.requests.length - callsBefore, failedRows: after.failing };
    tradingView.sessionExpired = null;
    outcome.what = `TradingView session refused (401) for ${SESSION_EXPIRED_MS / 1000} s`;
  }
  outcome.recoveredAt = await databaseNow(db);
  log(`recovered: ${outcome.what}`);
}

async function runFault(fault: Fault): Promise<Outcome> {
  const databaseUrl = await freshDatabase(`chaos_${fault.replace('-', '_')}`);
  const tradingView = await startFakeTradingView({ accounts: Array.from({ length: BUYERS }, (_, i) => burstUsername(i)) });
  const env = shopEnv(databaseUrl, tradingView, join(work, `${fault}-data`));
  const count = fault === 'kill9' ? 2 : 1;
  const instances: Instance[] = [];
  // one after the other: the first builds the server when the build is stale
  for (const port of SHOP_PORTS.slice(0, count)) instances.push(await launch(port, env, join(work, `${fault}-${port}.log`)));
  const db = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  // the restart cuts the bench's own connections too
  db.on('error', () => undefined);
  const retried: Record<string, number> = {};
  const outcome: Partial<Outcome> = { fault, retried };
  try {
    tradingView.callsPerSecond = TRADINGVIEW.callsPerSecond;
    tradingView.failureRate = TRADINGVIEW.failureRate;
    log(`${fault}: ${BUYERS} buyers from ${ADDRESSES} addresses on ${count} instance(s); TradingView allows ${TRADINGVIEW.callsPerSecond} calls/s and fails ${TRADINGVIEW.failureRate * 100} %`);
    const struck = strike(fault, { db, instances, env, tradingView }, outcome);
    // awaited once the burst is over; handled from now on, so that a fault that fails (an instance
    // that does not start again) ends the bench through its finally, which stops the cluster
    struck.catch(() => undefined);
    const burst = await runBurst({
      base: instances.map((instance) => instance.base),
      db,
      tradingView,
      buyers: BUYERS,
      addresses: ADDRESSES,
      scripts: SCRIPTS.length,
      patience: { retryForMs: PATIENCE_MS, onRetry: (status) => (retried[status] = (retried[status] ?? 0) + 1) },
      discord: true,
    });
    await struck;
    // every mail of the burst's buyers sent and every provider event delivered (an event a killed
    // instance held waits out its 30 s lease), or the deadline
    const mailDeadline = Date.now() + MAIL_DEADLINE_MS;
    let unsent = Number.NaN;
    while (Date.now() < mailDeadline) {
      const { rows: [pending] } = await db.query<{ unsent: number; undelivered: number }>(
        `SELECT (SELECT count(*)::int FROM outbox WHERE status <> 'sent') AS unsent, (SELECT count(*)::int FROM sandbox_events WHERE delivered_at IS NULL) AS undelivered`,
      );
      unsent = pending!.unsent;
      if (unsent === 0 && pending!.undelivered === 0) break;
      await sleep(500);
    }
    const since = outcome.recoveredAt!;
    const span = async (table: string, column: string, where: string) => {
      const { rows: [row] } = await db.query<{ first: number | null; last: number | null }>(
        `SELECT extract(epoch FROM min(${column}) - $1)::float AS first, extract(epoch FROM max(${column}) - $1)::float AS last FROM ${table} WHERE ${where} AND ${column} >= $1`,
        [since],
      );
      return row!;
    };
    const { rows: [events] } = await db.query<{ total: number; undelivered: number; processed: number }>(
      `SELECT count(*)::int AS total, count(*) FILTER (WHERE delivered_at IS NULL)::int AS undelivered,
         (SELECT count(*)::int FROM processed_events) AS processed FROM sandbox_events`,
    );
    const queued = (await db.query<{ error: string; n: number }>(
      `SELECT coalesce(substring(last_error FROM '^[a-z_]+: [A-Z]+ [^:]+: [0-9]+'), last_error, status) AS error, count(*)::int AS n FROM tradingview_grants WHERE status <> 'granted' GROUP BY 1`,
    )).rows;
    const logs = [...new Set(instances.map((instance) => instance.logFile))];
    return {
      ...(outcome as Outcome),
      burst,
      queued: Object.fromEntries(queued.map(({ error, n }) => [error, n])),
      grants: await span('tradingview_grants', 'updated_at', `status = 'granted'`),
      mails: { ...(await span('outbox', 'sent_at', `status = 'sent'`)), unsent },
      roles: await span('discord_members', 'updated_at', `status = 'synced'`),
      events: { ...events!, failedDeliveries: logs.reduce((sum, file) => sum + countLines(file, 'sandbox event delivery failed'), 0) },
      unhandled: logs.reduce((sum, file) => sum + countLines(file, 'unhandled error'), 0),
      crashed: instances.filter((instance) => instance.child.exitCode !== null).length,
    };
  } finally {
    tradingView.sessionExpired = null;
    await Promise.all(instances.map((instance) => stop(instance.child)));
    await db.end();
    await tradingView.close();
  }
}

const seconds = (value: number | null) => (value === null ? 'none' : `${value.toFixed(1)} s`);
const outcomes: Outcome[] = [];
let failed = true;
try {
  for (const fault of faults) {
    const outcome = await runFault(fault);
    outcomes.push(outcome);
    const { burst } = outcome;
    console.log(
      `${fault}: ${outcome.what}. ${burst.purchases} purchases in ${burst.purchaseSeconds.toFixed(1)} s, ${burst.claimed} claimed; ${burst.lost} lost, ${burst.duplicated} duplicated, ${burst.granted} granted` +
        `, last grant ${Number.isNaN(burst.lastGrantSeconds) ? 'not within the deadline' : `${burst.lastGrantSeconds.toFixed(1)} s after the first page`}` +
        (Object.keys(outcome.queued).length ? `; still in the grant queue (retrying), by last error: ${JSON.stringify(outcome.queued)}` : '') +
        `\n  after the recovery: grants first ${seconds(outcome.grants.first)}, last ${seconds(outcome.grants.last)}; mails first ${seconds(outcome.mails.first)}, last ${seconds(outcome.mails.last)}, ${outcome.mails.unsent} unsent` +
        `\n  sandbox events ${outcome.events.total} (${outcome.events.undelivered} undelivered, ${outcome.events.failedDeliveries} deliveries failed and retried, ${outcome.events.processed} processed)` +
        `; buyers retried after ${JSON.stringify(outcome.retried)}; refusals ${JSON.stringify(burst.refusals)}; unhandled errors ${outcome.unhandled}; instances crashed ${outcome.crashed}` +
        (burst.discord
          ? `\n  Discord: ${burst.discord.connected} of ${burst.claimed} connected, ${burst.discord.withRole} with the VIP role, last role ${Number.isNaN(burst.discord.lastRoleSeconds) ? 'not within the deadline' : `${burst.discord.lastRoleSeconds.toFixed(1)} s after the first page`}` +
            `; roles after the recovery: first ${seconds(outcome.roles.first)}, last ${seconds(outcome.roles.last)}`
          : '') +
        (outcome.expiry ? `\n  while the session was refused: ${outcome.expiry.attemptsBurned} grant attempts counted, ${outcome.expiry.callsWhileExpired} TradingView calls, ${outcome.expiry.failedRows} rows failing` : '') +
        `; TradingView ${burst.tradingViewCalls} calls, ${burst.tradingViewThrottled} throttled`,
    );
  }
  failed = outcomes.some(({ burst, events, mails, crashed }) => burst.lost > 0 || burst.duplicated > 0 || burst.granted < burst.claimed || events.undelivered > 0 || mails.unsent > 0 || crashed > 0);
  console.log(
    `chaos: ${outcomes
      .map(({ fault, burst, expiry }) => `${fault} ${burst.purchases} purchases ${burst.lost} lost ${burst.duplicated} duplicated ${burst.granted} granted${burst.discord ? ` ${burst.discord.withRole} roles` : ''}${expiry ? ` ${expiry.attemptsBurned} attempts burned` : ''}`)
      .join('; ')}`,
  );
} catch (error) {
  console.error(error);
} finally {
  cluster.destroy();
  if (process.env.KEEP_CHAOS_LOGS) console.log(`logs kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
  process.exitCode = failed ? 1 : 0;
}
