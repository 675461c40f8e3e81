// The client build's files, compressed once at build time: NAME.br (brotli, its best quality) and
// NAME.gz (gzip level 9) beside NAME, which the server sends as they are to a browser that accepts
// them (src/server/http/spa.ts). Without them the server gzipped every script and stylesheet on
// every request, at a level chosen for speed: a new visitor's first page cost the shop's CPU a
// megabyte of compression, and came larger than it had to.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** What browsers get from the build and compresses well: not images already compressed, not the HTML templates (served rewritten, never raw). */
const COMPRESSIBLE = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.txt', '.xml', '.webmanifest', '.ico']);
/** Under about a packet, compressing saves nothing a visitor would notice (hono/compress's own threshold). */
const MIN_BYTES = 1024;

/** The files of `dir` to compress (paths relative to it): compressible, large enough, and not the server renderer's (ssr/). */
export function filesToCompress(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && COMPRESSIBLE.has(extname(entry.name).toLowerCase()))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .filter((path) => !path.startsWith(`ssr/`))
    .filter((path) => readFileSync(join(dir, path)).length >= MIN_BYTES);
}

/**
 * Writes NAME.br and NAME.gz beside each file of `filesToCompress(dir)`, each only when it is
 * smaller than the file itself. Returns how many files were written.
 */
export async function precompress(dir) {
  const files = filesToCompress(dir);
  const written = await Promise.all(
    files.map(async (path) => {
      const source = readFileSync(join(dir, path));
      const compressed = await Promise.all([
        brotli(source, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: source.length } }).then((body) => ['.br', body]),
        gzipAsync(source, { level: 9 }).then((body) => ['.gz', body]),
      ]);
      const smaller = compressed.filter(([, body]) => body.length < source.length);
      for (const [suffix, body] of smaller) writeFileSync(join(dir, path + suffix), body);
      return smaller.length;
    }),
  );
  return written.reduce((sum, count) => sum + count, 0);
}
