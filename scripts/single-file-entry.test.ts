import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { singleFileEntry } from './single-file-entry.mjs';

// A client build as Vite writes it: the landing entry imports a chunk shared with the app (the
// preload helper) and a loader, and loads the page's code with a dynamic import.
function fakeBuild(): string {
  const dir = mkdtempSync(join(tmpdir(), 'single-file-entry-'));
  mkdirSync(join(dir, 'assets'));
  mkdirSync(join(dir, '.vite'));
  const files: Record<string, string> = {
    'assets/helper-AAA.js': 'const preload=(load)=>load();export{preload as t};',
    'assets/loader-BBB.js': 'function later(load){window.__loaded=load()}export{later as t};',
    'assets/landing-CCC.js': 'import{t as e}from"./helper-AAA.js";import{t}from"./loader-BBB.js";t(()=>e(()=>import(`./landing-hydrate-DDD.js`)));',
    'assets/landing-hydrate-DDD.js': 'export const ready=1;',
    'landing.html':
      '<head><script type="module" crossorigin src="/assets/landing-CCC.js"></script>\n<link rel="modulepreload" crossorigin href="/assets/helper-AAA.js">\n<link rel="modulepreload" crossorigin href="/assets/loader-BBB.js">\n<style>x</style></head>',
  };
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  const manifest = {
    'landing.html': { file: 'assets/landing-CCC.js', name: 'landing', src: 'landing.html', isEntry: true, imports: ['_helper-AAA.js', '_loader-BBB.js'], dynamicImports: ['src/client/landing-hydrate.tsx'] },
    '_helper-AAA.js': { file: 'assets/helper-AAA.js', name: 'helper' },
    '_loader-BBB.js': { file: 'assets/loader-BBB.js', name: 'loader' },
    'src/client/landing-hydrate.tsx': { file: 'assets/landing-hydrate-DDD.js', isDynamicEntry: true, imports: ['_helper-AAA.js'] },
  };
  writeFileSync(join(dir, '.vite', 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

describe('singleFileEntry', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('bundles the entry’s static imports into one file the HTML loads alone, keeping its dynamic import', async () => {
    const dir = fakeBuild();
    dirs.push(dir);
    const file = await singleFileEntry(dir, 'landing.html');

    expect(file).toMatch(/^assets\/landing-[\w-]{8}\.js$/);
    const js = readFileSync(join(dir, file), 'utf8');
    expect(js).not.toMatch(/\bimport\s*[{*\w]/);
    expect(js).toContain('./landing-hydrate-DDD.js');
    expect(js).toContain('__loaded');
    expect(js).toContain(`//# sourceMappingURL=${file.slice('assets/'.length)}.map`);
    expect(existsSync(join(dir, `${file}.map`))).toBe(true);

    const html = readFileSync(join(dir, 'landing.html'), 'utf8');
    expect(html).toContain(`<script type="module" crossorigin src="/${file}"></script>`);
    expect(html).not.toContain('modulepreload');
    expect(html).toContain('<style>x</style>');

    const manifest = JSON.parse(readFileSync(join(dir, '.vite', 'manifest.json'), 'utf8'));
    expect(manifest['landing.html']).toMatchObject({ file, isEntry: true, imports: [], dynamicImports: ['src/client/landing-hydrate.tsx'] });
    // the shared chunks stay for the page's code; the old entry chunk goes
    expect(existsSync(join(dir, 'assets/helper-AAA.js'))).toBe(true);
    expect(existsSync(join(dir, 'assets/landing-CCC.js'))).toBe(false);
  });

  it('the bundled entry runs its loader and its dynamic import as before', async () => {
    const dir = fakeBuild();
    dirs.push(dir);
    const file = await singleFileEntry(dir, 'landing.html');
    const loaded = globalThis as { window?: { __loaded?: Promise<{ ready: number }> } };
    loaded.window = {};
    await import(join(dir, file));
    await expect(loaded.window.__loaded).resolves.toMatchObject({ ready: 1 });
    delete loaded.window;
  });

  it('refuses a page that is not an entry of the build', async () => {
    const dir = fakeBuild();
    dirs.push(dir);
    await expect(singleFileEntry(dir, 'legal.html')).rejects.toThrow(/not an entry/);
  });
});
