// Gzipped JavaScript a page loads before interaction: its <script src> and <link rel="modulepreload">
// tags, and what those entries import right after the first paint (the pre-rendered pages' entries
// load React and the page's code with a dynamic import once painted, landing-main.tsx): the entry
// chunk's own dynamic imports and their static imports, read from the build's manifest. Lazy chunks
// imported from deeper down load on idle or on demand and are not counted. Used by
// `npm run bench:web`; on its own: `node bench/initial-js.mjs [clientDir] [page.html]`.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

function manifestChunks(clientDir) {
  const file = join(clientDir, '.vite', 'manifest.json');
  return existsSync(file) ? Object.entries(JSON.parse(readFileSync(file, 'utf8'))) : [];
}

/** The files an entry's chunk pulls in at once: its static imports, its own dynamic imports and theirs. */
function afterPaintFiles(chunks, entryFile) {
  const byKey = new Map(chunks);
  const entry = chunks.find(([, chunk]) => chunk.isEntry && chunk.file === entryFile.replace(/^\//, ''))?.[1];
  if (!entry) return [];
  const files = new Set();
  const addStatic = (key) => {
    const chunk = byKey.get(key);
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    (chunk.imports ?? []).forEach(addStatic);
  };
  (entry.imports ?? []).forEach(addStatic);
  (entry.dynamicImports ?? []).forEach(addStatic);
  return [...files].map((file) => `/${file}`);
}

/** The scripts an HTML document loads before interaction, with their gzipped sizes in bytes. */
export function initialScripts(clientDir, html) {
  const tags = [...html.matchAll(/<(script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)];
  const chunks = manifestChunks(clientDir);
  const paths = tags.flatMap(([, tag, path]) => (tag.startsWith('script') ? [path, ...afterPaintFiles(chunks, path)] : [path]));
  return [...new Set(paths)].map((path) => ({ path, gzip: gzipSync(readFileSync(join(clientDir, path)), { level: 9 }).length }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const clientDir = resolve(process.argv[2] ?? 'dist/client');
  const scripts = initialScripts(clientDir, readFileSync(join(clientDir, process.argv[3] ?? 'landing.html'), 'utf8'));
  for (const script of scripts) console.log(`${(script.gzip / 1024).toFixed(1).padStart(7)} kB  ${script.path}`);
  console.log(`${(scripts.reduce((sum, script) => sum + script.gzip, 0) / 1024).toFixed(1).padStart(7)} kB  gzipped JavaScript before interaction`);
}
