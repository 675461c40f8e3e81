// `npm run build` (everything, always) and the build half of `npm start` (only what is missing or
// stale, scripts/build-state.mjs). The client is Vite's build (`npm run build:client`), the
// server esbuild's (scripts/build-server.mjs).
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildState, recordBuild } from './build-state.mjs';
import { buildServer } from './build-server.mjs';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

const builders = {
  server: () => buildServer(root),
  client: async () => {
    const result = spawnSync('npm', ['run', 'build:client'], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) throw new Error('the client build failed');
  },
};

/**
 * Builds each named build when `force` or when it is stale, and records what it was built from.
 * Returns the names it built.
 */
export async function build(names, { force = false, log = console.log } = {}) {
  const built = [];
  for (const name of names) {
    const state = buildState(root, name);
    if (!force && !state.stale) continue;
    const started = performance.now();
    log(`building the ${name}${force ? '' : ' (missing or changed since the last build)'} ...`);
    await builders[name]();
    recordBuild(root, name, state.current);
    log(`built the ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    built.push(name);
  }
  return built;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  await build(names.length ? names : ['client', 'server'], { force: true });
}
