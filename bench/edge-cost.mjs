// `npm run bench:edge`: what a few µs of work per request do to a bare Hono app's req/s on this
// machine, with the same adapter and load generator as `npm run bench`. Each variant is the bare
// app (bare-hono.mjs) plus one cost: a busy wait, or what the shop's edge writes on every answer
// (security headers, request id, request line). Shows why `/healthz` cannot reach 70 % of the
// bare app with the edge in front (README, "Figures"). Not a test: it prints a table.
//
//   node bench/edge-cost.mjs            run every variant (3 turns of 2 s each)
//   node bench/edge-cost.mjs --serve V  (internal) serve variant V on PORT
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const VARIANTS = ['plain', 'wait 3 µs', 'wait 5 µs', 'wait 10 µs', 'wait 20 µs', 'headers', 'headers + id', 'headers + id + line'];
// what the edge writes on every answer (http/security-headers.ts, with the default policy)
const SECURITY_HEADERS = new Map(
  Object.entries({
    'content-security-policy':
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-src 'none'; font-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    'strict-transport-security': 'max-age=15552000; includeSubDomains',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  }),
);

async function serveVariant(variant) {
  const { serve } = await import('@hono/node-server');
  const { Hono } = await import('hono');
  const app = new Hono().get('/healthz', (c) => c.json({ status: 'ok' }));
  const waitMs = Number(/^wait (\d+)/.exec(variant)?.[1] ?? 0) / 1000;
  let lines = '';
  const fetch = (request, env) => {
    const { incoming, outgoing } = env;
    if (waitMs) for (const end = performance.now() + waitMs; performance.now() < end; );
    if (variant.startsWith('headers')) outgoing.setHeaders(SECURITY_HEADERS);
    if (variant.includes('id')) {
      const requestId = randomUUID();
      const started = performance.now();
      outgoing.setHeader('x-request-id', requestId);
      if (variant.includes('line')) {
        outgoing.once('finish', () => {
          const path = (incoming.url ?? '').split('?', 1)[0];
          lines += `{"level":30,"time":${Date.now()},"requestId":"${requestId}","method":"${incoming.method}","path":${JSON.stringify(path)},"status":${outgoing.statusCode},"ms":${Math.round(performance.now() - started)},"msg":"request"}\n`;
          if (lines.length < 4096) return;
          process.stdout.write(lines);
          lines = '';
        });
      }
    }
    return app.fetch(request, env);
  };
  serve({ fetch, hostname: '127.0.0.1', port: Number(process.env.PORT) }, () => process.stderr.write('ready\n'));
}

const cpuMicros = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};

const generator = fileURLToPath(new URL('http-load.mjs', import.meta.url));
const load = (port, seconds) =>
  JSON.parse(execFileSync(process.execPath, [generator, JSON.stringify({ url: `http://127.0.0.1:${port}/healthz`, connections: 16, seconds })], { maxBuffer: 1 << 28 }).toString());

async function measureAll() {
  const self = fileURLToPath(import.meta.url);
  const servers = VARIANTS.map((variant, index) => {
    const port = 4100 + index;
    const child = spawn(process.execPath, [self, '--serve', variant], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    return { variant, port, child, up: new Promise((ready) => child.stderr.once('data', ready)), requests: 0, seconds: 0, cpu: 0 };
  });
  try {
    await Promise.all(servers.map(({ up }) => up));
    for (const server of servers) load(server.port, 1);
    for (let turn = 0; turn < 3; turn++) {
      for (const server of servers) {
        const before = cpuMicros(server.child.pid);
        const { timings, seconds } = load(server.port, 2);
        server.cpu += cpuMicros(server.child.pid) - before;
        server.requests += timings.length;
        server.seconds += seconds;
      }
    }
    const plain = servers[0].requests / servers[0].seconds;
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
if (serveFlag > 0) await serveVariant(process.argv[serveFlag + 1]);
else await measureAll();
