// Gzipped JavaScript a page loads before interaction: its <script src> and <link rel="modulepreload">
// tags (what the browser fetches at once; lazy chunks load on idle or on demand). Used by
// `npm run bench:web`; on its own: `node bench/initial-js.mjs [clientDir] [page.html]`.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The scripts an HTML document loads at once, with their gzipped sizes in bytes. */
export function initialScripts(clientDir, html) {
  const paths = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+\.js)"/g)].map((match) => match[1]);
  return [...new Set(paths)].map((path) => ({ path, gzip: gzipSync(readFileSync(join(clientDir, path)), { level: 9 }).length }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const clientDir = resolve(process.argv[2] ?? 'dist/client');
  const scripts = initialScripts(clientDir, readFileSync(join(clientDir, process.argv[3] ?? 'landing.html'), 'utf8'));
  for (const script of scripts) console.log(`${(script.gzip / 1024).toFixed(1).padStart(7)} kB  ${script.path}`);
  console.log(`${(scripts.reduce((sum, script) => sum + script.gzip, 0) / 1024).toFixed(1).padStart(7)} kB  gzipped JavaScript before interaction`);
}
