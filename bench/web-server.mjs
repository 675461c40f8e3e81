// The production server the landing-page benches measure (`npm run bench:web`, bench/long-tasks.mjs):
// the real server on a client build, sandbox adapters, an empty temporary database. BENCH_PORT picks
// its port (several engineers on one machine each keep their own range); else a free one.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the client into `clientDir` when its sources are newer than the build there (CLIENT_DIR: measured as it is). */
export function buildIfNeeded(clientDir) {
  // another folder (CLIENT_DIR) is measured as it is; a missing one would measure the server's bare fallback page
  if (process.env.CLIENT_DIR) {
    if (!existsSync(join(clientDir, 'index.html'))) throw new Error(`${clientDir} holds no client build (index.html)`);
    return;
  }
  // the server renderer is built last: when it is there and new, the whole build is
  const renderer = join(clientDir, 'ssr', 'prerender.js');
  const templates = ['index.html', 'landing.html', 'vite.config.ts'].map((file) => statSync(join(root, file)).mtimeMs);
  const sources = Math.max(newestMtime(join(root, 'src/client')), newestMtime(join(root, 'src/shared')), ...templates);
  if (existsSync(renderer) && statSync(renderer).mtimeMs >= sources) return;
  console.log(`building the client into ${clientDir} ...`);
  const result = spawnSync('node', ['scripts/build-client.mjs', '--outDir', clientDir], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error('the client build failed');
}

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

/** Starts the server on `clientDir`; resolves to { url, stop } once it answers /readyz. */
export async function startWebServer(clientDir) {
  const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'candlewise-bench-web-'));
  const child = spawn('npx', ['tsx', 'src/server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: dataDir,
      CLIENT_DIR: clientDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  const stop = () => {
    if (child.exitCode === null) {
      // npx starts tsx which starts node: end the whole process group this script created
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      stop();
      throw new Error(`the server exited with code ${child.exitCode}`);
    }
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 300));
  }
  stop();
  throw new Error('the server did not become ready within 120 s');
}
