// `npm run build:client [-- --outDir DIR]`: the browser build (index.html, landing.html) into DIR
// (dist/client), then the landing page's server renderer into DIR/ssr, which the server loads to
// send / and /eu as real HTML (docs/decisions/015). The pre-rendered pages' entries are then made
// one file each (scripts/single-file-entry.mjs, decision 020).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { singleFileEntry } from './single-file-entry.mjs';

const flag = process.argv.indexOf('--outDir');
const outDir = flag > 0 ? process.argv[flag + 1] : 'dist/client';

function vite(args) {
  const result = spawnSync('npx', ['vite', 'build', ...args], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

vite(['--outDir', outDir, '--emptyOutDir']);
for (const page of ['landing.html', 'legal.html']) await singleFileEntry(outDir, page);
vite(['--ssr', 'src/client/prerender.tsx', '--outDir', join(outDir, 'ssr'), '--emptyOutDir']);
