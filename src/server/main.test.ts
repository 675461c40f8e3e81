import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.mjs';
import { PROJECT_ROOT } from './project-root';
import { startFakeTradingView } from './test-support/fake-tradingview-server';
import { npmStart } from './test-support/npm-start';

// main.ts as an operator runs it: compiled as `npm start` compiles it, a real process with
// `npm start`'s Node flags (one this Node refuses fails here), real port, embedded database. The
// build goes to a folder of its own inside the project, where the bundle finds node_modules,
// migrations and content as dist/server/main.js does.
const dirs: string[] = [];
const children: ChildProcess[] = [];
let compiledServer = '';
beforeAll(async () => {
  await mkdir(join(PROJECT_ROOT, 'test-results'), { recursive: true });
  const outdir = await mkdtemp(join(PROJECT_ROOT, 'test-results', 'main-test-server-'));
  dirs.push(outdir);
  await buildServer(PROJECT_ROOT, outdir);
  compiledServer = join(outdir, 'main.js');
}, 120_000);
afterAll(async () => {
  // a test that failed half-way must not leave its server running
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, [...npmStart().nodeFlags, '--enable-source-maps', compiledServer], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', CLIENT_DIR: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  // 'close' comes after the output streams have ended, so output() is complete by then
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Polls /readyz until the server answers ready; false when the process exited first. */
async function waitUntilReady(port: number, exited: Promise<unknown>): Promise<boolean> {
  let stopped = false;
  void exited.then(() => (stopped = true));
  while (!stopped) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((response) => response.ok).catch(() => false);
    if (ready) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

/**
 * Starts the server on a free port and waits (on its readiness, however long a busy machine
 * takes) until it is ready. The port is free when chosen but another process on a shared
 * machine can take it before the server binds: then it starts again on another port.
 */
async function startReady(env: Record<string, string>) {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const server = start({ ...env, PORT: String(port) });
    if (await waitUntilReady(port, server.exited)) return { ...server, port };
    if (attempt === 3 || !server.output().includes('EADDRINUSE')) throw new Error(`server exited before it was ready:\n${server.output()}`);
  }
}

// A real process starts PGlite: several seconds alone, over a minute on a busy
// 2-core machine. The waits are on the process (ready, exited); the limits only bound a hang.
describe('main', () => {
  it('starts with zero configuration, logs its adapters, and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'candlewise-main-'));
    dirs.push(dataDir);
    const server = await startReady({ DATA_DIR: dataDir, STOP_NOTICE_MS: '8000' });
    const origin = `http://127.0.0.1:${server.port}`;
    expect(await (await fetch(`${origin}/readyz`)).json()).toEqual({ status: 'ready', database: 'pglite' });
    server.child.kill('SIGTERM');
    // the notice: a proxy's health check sees 503 while every request is still answered
    await expect.poll(async () => (await fetch(`${origin}/readyz`)).status, { timeout: 8000, interval: 100 }).toBe(503);
    expect(await (await fetch(`${origin}/readyz`)).json()).toMatchObject({ error: { code: 'stopping' } });
    expect((await fetch(`${origin}/healthz`)).status).toBe(200);
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('sandbox: payments, tradingview, discord, mail');
    expect(server.output()).toContain('stopped');
  }, 180_000);

  // With PORT=3300 the log once said "listening on http://localhost:3000" and a buyer was sent there.
  it('on any port: logs where it listens and sends a buyer on 127.0.0.1 back to 127.0.0.1', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'candlewise-main-'));
    dirs.push(dataDir);
    const server = await startReady({ DATA_DIR: dataDir });
    const { port } = server;
    const origin = `http://127.0.0.1:${port}`;
    const post = async (path: string, body: unknown) =>
      (await fetch(`${origin}${path}`, { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
    const checkout = await post('/api/create-checkout', { planType: 'monthly', customerEmail: null, fbc: null, fbp: null, userAgent: 'vitest', originPage: '/' });
    const paid = await post(`/api/sandbox/checkout/${checkout.sessionId}/pay`, { email: 'ada@example.com', cardNumber: '4242424242424242', expiry: '12 / 39', cvc: '123', name: 'Ada' });
    expect(paid.redirectUrl).toBe(`${origin}/payment-success?session_id=${checkout.sessionId}`);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain(`listening on http://localhost:${port}\n`);
    // development logs are readable lines, and the address mismatch is told once
    expect(server.output()).not.toContain('"msg"');
    expect(server.output().split(`PUBLIC_URL is http://localhost:${port} but requests arrive at ${origin}`)).toHaveLength(2);
  }, 180_000);

  it('refuses to start with invalid configuration and lists every problem', async () => {
    const server = start({ PORT: 'eighty', SUPPORT_EMAIL: 'nope' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Invalid configuration');
    expect(server.output()).toContain('PORT:');
    expect(server.output()).toContain('SUPPORT_EMAIL:');
  }, 120_000);

  it('in production, refuses to start before listening when the doctor finds a problem', async () => {
    const tradingView = await startFakeTradingView();
    try {
      const port = await freePort();
      const server = start({
        NODE_ENV: 'production',
        PORT: String(port),
        TRADINGVIEW_SESSION_ID: 'signed-out',
        TRADINGVIEW_SESSION_SIGN: 'signed-out',
        TRADINGVIEW_BASE_URL: tradingView.baseUrl,
        TRADINGVIEW_SCRIPT_IDS: 'PUB;3be120ba74944ca7b32ad644f40aaff2',
      });
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain('Refusing to start: the live configuration has problems.');
      expect(server.output()).toContain('PROBLEM  TradingView  the session cookie is not signed in');
      expect(server.output()).not.toContain('listening on');
    } finally {
      await tradingView.close();
    }
  }, 120_000);
});
