// A rolling restart under load: two instances of the compiled server on one fresh Postgres
// database behind a small proxy that does what Caddy's reverse_proxy does with lb_try_duration
// (a request whose upstream refuses the connection, or drops a reused idle one before answering,
// goes to the other upstream), while members read their member routes. Each instance in turn is
// stopped with SIGTERM and started again; the bench counts the requests answered and failed and
// exits 1 when any failed (decision 051).
//
//   npm run bench:rolling                     (TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres)
//   npm run bench:rolling -- --members 8      members reading at once (default 6)
import { createServer, request as httpRequest, Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { becomeMember, type Browser } from './shop-client';
import { freePort, freshPostgres, root, startServer, stop, waitUntilUp } from './server-process';

const MEMBER_ROUTES = ['/api/auth/get-session', '/api/access', '/api/subscription', '/api/tradingview/status', '/api/content/guides'];
const args = process.argv.slice(2);
const members = Number(args[args.indexOf('--members') + 1] ?? 6) || 6;
const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** How long the proxy keeps trying upstreams for one request (Caddy's lb_try_duration). */
const TRY_FOR_MS = 15_000;

type Upstream = { port: number; child: ChildProcess | null };

/** Round robin over `upstreams`; a connection refused or reset before any answer tries the next one. */
function startProxy(upstreams: Upstream[]) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;
  const server = createServer((incoming: IncomingMessage, outgoing: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks);
      const giveUpAt = Date.now() + TRY_FOR_MS;
      const attempt = () => {
        const upstream = upstreams[next++ % upstreams.length]!;
        const forwarded = httpRequest(
          { host: '127.0.0.1', port: upstream.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, 'x-forwarded-for': '203.0.113.7' }, agent },
          (answer) => {
            outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(outgoing);
          },
        );
        forwarded.on('error', (error: NodeJS.ErrnoException) => {
          const retriable = error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET' || error.message === 'socket hang up';
          if (!outgoing.headersSent && retriable && Date.now() < giveUpAt) setTimeout(attempt, 50);
          else if (!outgoing.headersSent) outgoing.writeHead(502).end(error.message);
          else outgoing.destroy();
        });
        forwarded.end(body);
      };
      attempt();
    });
  });
  return new Promise<{ port: number; close: () => void }>((done) =>
    server.listen(0, '127.0.0.1', () =>
      done({
        port: (server.address() as AddressInfo).port,
        close: () => {
          server.closeAllConnections();
          server.close();
          agent.destroy();
        },
      }),
    ),
  );
}

async function main() {
  const logs = join(root, 'test-results', 'rolling-restart');
  mkdirSync(logs, { recursive: true });
  const database = await freshPostgres(adminUrl, 'cw_rolling');
  const upstreams: Upstream[] = [
    { port: await freePort(), child: null },
    { port: await freePort(), child: null },
  ];
  const proxy = await startProxy(upstreams);
  const publicUrl = `http://127.0.0.1:${proxy.port}`;
  const env = {
    DATABASE_URL: database.url,
    PUBLIC_URL: publicUrl,
    TRUST_PROXY: '1',
    AUTH_SECRET: 'rolling-restart-bench-secret-0123456789abcdef',
    CLIENT_DIR: '/nonexistent',
    LOG_LEVEL: 'info',
  };
  let generation = 0;
  const launch = async (upstream: Upstream) => {
    generation += 1;
    upstream.child = startServer(upstream.port, env, join(logs, `instance-${upstream.port}-${generation}.log`));
    await waitUntilUp(upstream.child, `http://127.0.0.1:${upstream.port}/readyz`);
  };
  const counts = { answered: 0, failed: 0, byStatus: new Map<string, number>() };
  let loading = true;
  try {
    // one at a time: the first builds the server when its build is stale
    await launch(upstreams[0]!);
    await launch(upstreams[1]!);
    const browsers: Browser[] = [];
    for (let i = 0; i < members; i += 1) browsers.push(await becomeMember(publicUrl, `rolling-${i}-${Date.now()}@example.com`));
    console.log(`${members} members reading ${MEMBER_ROUTES.length} member routes through the proxy at ${publicUrl}`);
    const readers = browsers.map(async (member, i) => {
      for (let n = i; loading; n += 1) {
        const route = MEMBER_ROUTES[n % MEMBER_ROUTES.length]!;
        const status = await member.fetch(route).then(
          async (response) => {
            await response.arrayBuffer();
            return response.ok ? 'ok' : String(response.status);
          },
          (error: unknown) => `error ${String(error)}`,
        );
        if (status === 'ok') counts.answered += 1;
        else counts.failed += 1;
        counts.byStatus.set(status, (counts.byStatus.get(status) ?? 0) + 1);
      }
    });
    for (const upstream of upstreams) {
      const before = counts.answered;
      const stopping = stop(upstream.child ?? undefined);
      await stopping;
      console.log(`instance on :${upstream.port} stopped with SIGTERM (exit ${upstream.child?.exitCode}); ${counts.answered - before} answered meanwhile`);
      await launch(upstream);
      console.log(`instance on :${upstream.port} started again and ready`);
    }
    // a little more load on both new instances
    const settledAt = counts.answered + 200;
    while (counts.answered < settledAt && counts.failed === 0) await new Promise((done) => setTimeout(done, 100));
    loading = false;
    await Promise.all(readers);
  } finally {
    loading = false;
    for (const upstream of upstreams) await stop(upstream.child ?? undefined);
    proxy.close();
    await database.drop();
  }
  console.log(`rolling restart of 2 instances: ${counts.answered} requests answered, ${counts.failed} failed`);
  if (counts.failed > 0) console.log(Object.fromEntries(counts.byStatus));
  process.exitCode = counts.failed > 0 ? 1 : 0;
}

await main();
