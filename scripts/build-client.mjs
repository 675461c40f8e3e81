// `npm run build:client [-- --outDir DIR]`: the browser build (index.html, landing.html) into DIR
// (dist/client), then the landing page's server renderer into DIR/ssr, which the server loads to
// send / and /eu as real HTML (docs/decisions/015). The pre-rendered pages' entries are then made
// one file each (scripts/single-file-entry.mjs, decision 020), and what browsers get is compressed
// once (scripts/precompress.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { precompress } from './precompress.mjs';
import { singleFileEntry } from './single-file-entry.mjs';

const flag = process.argv.indexOf('--outDir');
const outDir = flag > 0 ? process.argv[flag + 1] : 'dist/client';

function vite(args) {
  const result = spawnSync('npx', ['vite', 'build', ...args], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/**
 * Everything in DIR is served to anyone, and a source map carries the client's whole source: the
 * single-file entry's map (esbuild writes one beside the entry) goes, with the line naming it.
 */
function dropSourceMap(dir, file) {
  const map = join(dir, `${file}.map`);
  if (existsSync(map)) rmSync(map);
  const path = join(dir, file);
  writeFileSync(path, readFileSync(path, 'utf8').replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n'));
}

const sourceMaps = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile() && entry.name.endsWith('.map'));

vite(['--outDir', outDir, '--emptyOutDir']);
for (const page of ['landing.html', 'legal.html']) dropSourceMap(outDir, await singleFileEntry(outDir, page));
vite(['--ssr', 'src/client/prerender.tsx', '--outDir', join(outDir, 'ssr'), '--emptyOutDir']);
const leaked = sourceMaps(outDir);
if (leaked.length) {
  console.error(`source maps in ${outDir}, which is served to anyone: ${leaked.map((entry) => relative(outDir, join(entry.parentPath, entry.name))).join(', ')}`);
  process.exit(1);
}
// last: every file browsers get is final by now
await precompress(outDir);
