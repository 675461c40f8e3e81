import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { filesToCompress, precompress } from './precompress.mjs';

// a script that compresses as a real bundle does (repetitive source), over the 1 kB floor
const SCRIPT = Array.from({ length: 200 }, (_, index) => `export const value${index} = "candlewise-${index}";`).join('\n');
let dir = '';

function fakeBuild(): string {
  dir = mkdtempSync(join(tmpdir(), 'precompress-'));
  for (const folder of ['assets', 'ssr']) mkdirSync(join(dir, folder));
  const files: Record<string, string | Buffer> = {
    'assets/index-AAA.js': SCRIPT,
    'assets/index-BBB.css': SCRIPT.replace(/export const/g, '.rule'),
    'assets/tiny-CCC.js': 'export const a = 1;',
    'assets/photo-DDD.png': Buffer.alloc(4096, 7),
    'index.html': `<html>${SCRIPT}</html>`,
    'ssr/prerender.js': SCRIPT,
  };
  for (const [file, body] of Object.entries(files)) writeFileSync(join(dir, file), body);
  return dir;
}

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('precompress', () => {
  it('takes the scripts and stylesheets browsers get, not small files, images, the HTML templates or the server renderer', () => {
    expect(filesToCompress(fakeBuild()).sort()).toEqual(['assets/index-AAA.js', 'assets/index-BBB.css']);
  });

  it('writes a brotli and a gzip copy beside each, both smaller and both the same file once decompressed', async () => {
    const build = fakeBuild();
    expect(await precompress(build)).toBe(4);
    for (const file of ['assets/index-AAA.js', 'assets/index-BBB.css']) {
      const source = readFileSync(join(build, file));
      const br = readFileSync(join(build, `${file}.br`));
      const gz = readFileSync(join(build, `${file}.gz`));
      expect(br.length).toBeLessThan(source.length);
      expect(gz.length).toBeLessThan(source.length);
      expect(brotliDecompressSync(br).equals(source)).toBe(true);
      expect(gunzipSync(gz).equals(source)).toBe(true);
    }
    for (const file of ['assets/tiny-CCC.js', 'assets/photo-DDD.png', 'index.html', 'ssr/prerender.js']) {
      expect(existsSync(join(build, `${file}.br`)), file).toBe(false);
      expect(existsSync(join(build, `${file}.gz`)), file).toBe(false);
    }
  });
});
