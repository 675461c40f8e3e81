import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// main.ts as an operator runs it: a real process, real port, embedded database.
const dirs: string[] = [];
afterAll(async () => {
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
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', CLIENT_DIR: '/nonexistent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitUntilReady(port: number, exited: Promise<unknown>) {
  let stopped = false;
  void exited.then(() => (stopped = true));
  while (!stopped) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((response) => response.ok).catch(() => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('server exited before it was ready');
}

describe('main', () => {
  it('starts with zero configuration, logs its adapters, and stops cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'candlewise-main-'));
    dirs.push(dataDir);
    const port = await freePort();
    const server = start({ PORT: String(port), DATA_DIR: dataDir });
    await waitUntilReady(port, server.exited);
    expect(await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()).toEqual({ status: 'ready', database: 'pglite' });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('sandbox: payments, tradingview, mail');
    expect(server.output()).toContain('stopped');
  }, 90_000);

  it('refuses to start with invalid configuration and lists every problem', async () => {
    const server = start({ PORT: 'eighty', SUPPORT_EMAIL: 'nope' });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('Invalid configuration');
    expect(server.output()).toContain('PORT:');
    expect(server.output()).toContain('SUPPORT_EMAIL:');
  }, 60_000);
});
