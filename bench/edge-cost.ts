// `npm run bench:edge`: what a few µs of work per request do to a bare Hono app's req/s on this
// machine, with the same adapter and load generator as `npm run bench`. Each variant is the bare
// app (bare-hono.mjs) plus one cost: a busy wait, or what the shop's edge writes on every answer
// (security headers, request id, request line). Shows why `/healthz` cannot reach 70 % of the
// bare app with the edge in front (README, "Figures"). Not a test: it prints a table.
//
//   npm run bench:edge                  run every variant (3 turns of 2 s each)
//   tsx bench/edge-cost.ts --serve V    (internal) serve variant V on PORT
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { Hono } from 'hono';
import { loadConfig } from '../src/server/config';
import { atTheEdge } from '../src/server/http/edge';
import { securityHeaders } from '../src/server/http/security-headers';
import { createLogger } from '../src/server/logger';

const VARIANTS = ['plain', 'wait 3 µs', 'wait 5 µs', 'wait 10 µs', 'wait 20 µs', 'headers', 'headers + id', 'the edge (headers + id + line)'];

/** Serves the bare app plus one variant's cost: the shop's own headers and edge, not copies. */
function serveVariant(variant: string) {
  const app = new Hono().get('/healthz', (c) => c.json({ status: 'ok' }));
  const headers = securityHeaders(loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000' }));
  const fixed = new Map(Object.entries(headers));
  const waitMs = Number(/^wait (\d+)/.exec(variant)?.[1] ?? 0) / 1000;
  const withCost = (request: Request, env: HttpBindings | Http2Bindings) => {
    // HTTP/1.1 here, as at the shop's edge
    const { outgoing } = env as HttpBindings;
    if (waitMs) for (const end = performance.now() + waitMs; performance.now() < end; );
    if (variant.startsWith('headers')) outgoing.setHeaders(fixed);
    if (variant === 'headers + id') outgoing.setHeader('x-request-id', randomUUID());
    return app.fetch(request, env);
  };
  // the edge as main.ts puts it in front of the shop, its log as production batches it (to stdout, ignored)
  const fetch = variant.startsWith('the edge') ? atTheEdge(app.fetch, { headers, logger: createLogger('info') }) : withCost;
  serve({ fetch, hostname: '127.0.0.1', port: Number(process.env.PORT) }, () => process.stderr.write('ready\n'));
}

const cpuMicros = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};

const generator = fileURLToPath(new URL('http-load.mjs', import.meta.url));
const load = (port: number, seconds: number): { timings: number[]; seconds: number } =>
  JSON.parse(execFileSync(process.execPath, [generator, JSON.stringify({ url: `http://127.0.0.1:${port}/healthz`, connections: 16, seconds })], { maxBuffer: 1 << 28 }).toString());

async function measureAll() {
  const self = fileURLToPath(import.meta.url);
  const servers = VARIANTS.map((variant, index) => {
    const port = 4100 + index;
    // process.execArgv carries tsx's loader to the variant's process
    const child = spawn(process.execPath, [...process.execArgv, self, '--serve', variant], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    return { variant, port, child, up: new Promise((ready) => child.stderr.once('data', ready)), requests: 0, seconds: 0, cpu: 0 };
  });
  try {
    await Promise.all(servers.map(({ up }) => up));
    for (const server of servers) load(server.port, 1);
    for (let turn = 0; turn < 3; turn++) {
      for (const server of servers) {
        const before = cpuMicros(server.child.pid!);
        const { timings, seconds } = load(server.port, 2);
        server.cpu += cpuMicros(server.child.pid!) - before;
        server.requests += timings.length;
        server.seconds += seconds;
      }
    }
    const plain = servers[0]!.requests / servers[0]!.seconds;
    console.table(
      servers.map(({ variant, requests, seconds, cpu }) => ({
        'bare Hono /healthz, plus': variant,
        'req/s': Math.round(requests / seconds),
        'vs plain': `${Math.round((requests / seconds / plain) * 100)} %`,
        'CPU µs/req': Math.round(cpu / requests),
      })),
    );
  } finally {
    for (const { child } of servers) child.kill();
  }
}

const serveFlag = process.argv.indexOf('--serve');
if (serveFlag > 0) serveVariant(process.argv[serveFlag + 1] ?? 'plain');
else await measureAll();
