// The pre-rendered pages' entries (landing.html, legal.html) as one file each, after the client
// build (docs/decisions/020, amendment "one script before the paint"). Vite gives such an entry
// static imports of chunks it shares with the other entries (its preload helper, the after-first-
// paint loader), each one more request the HTML announces (`<link rel="modulepreload">`). Lighthouse's
// simulation counts every request that finished before the largest paint into it, each on a
// connection of its own: up to 0.3 s on the mobile run for two small files. Here the entry's static
// imports are bundled into it (its dynamic imports stay as they are), the HTML loses the preload
// tags of what was bundled, and the manifest names the new file.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** esbuild plugin: dynamic imports stay imports of the chunks Vite wrote beside the entry. */
const keepDynamicImports = {
  name: 'keep-dynamic-imports',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined));
  },
};

/** Every chunk an entry imports statically, directly or not (manifest keys). */
function staticImports(manifest, key, seen = new Set()) {
  for (const imported of manifest[key]?.imports ?? []) {
    if (seen.has(imported)) continue;
    seen.add(imported);
    staticImports(manifest, imported, seen);
  }
  return seen;
}

/**
 * Bundles the static imports of the entry of `htmlFile` (a key of the build's manifest, such as
 * 'landing.html') into one new file `assets/<name>-<hash>.js`, and rewrites the HTML and the
 * manifest to it. Returns the new file's path inside `clientDir`.
 */
export async function singleFileEntry(clientDir, htmlFile) {
  const { build } = await import('esbuild');
  const manifestFile = join(clientDir, '.vite', 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  const entry = manifest[htmlFile];
  if (!entry?.isEntry) throw new Error(`${htmlFile} is not an entry of the client build`);
  const bundled = [...staticImports(manifest, htmlFile)].map((key) => manifest[key].file);

  const oldFile = entry.file;
  const result = await build({
    entryPoints: [join(clientDir, oldFile)],
    bundle: true,
    format: 'esm',
    minify: true,
    // Vite's own maps of the chunks, followed into the new file's
    sourcemap: 'linked',
    outfile: join(clientDir, 'assets', 'entry.js'),
    write: false,
    plugins: [keepDynamicImports],
    logLevel: 'warning',
  });
  const js = result.outputFiles.find((file) => file.path.endsWith('.js'));
  const map = result.outputFiles.find((file) => file.path.endsWith('.js.map'));
  const hash = createHash('sha256').update(js.contents).digest('base64url').slice(0, 8);
  const newFile = `assets/${entry.name ?? basename(htmlFile, '.html')}-${hash}.js`;
  const mapName = `${basename(newFile)}.map`;
  writeFileSync(join(clientDir, newFile), js.text.replace(/\/\/# sourceMappingURL=entry\.js\.map\s*$/, `//# sourceMappingURL=${mapName}\n`));
  if (map) writeFileSync(join(clientDir, 'assets', mapName), map.text);

  const htmlPath = join(clientDir, htmlFile);
  let html = readFileSync(htmlPath, 'utf8').replace(`src="/${oldFile}"`, `src="/${newFile}"`);
  for (const file of bundled) html = html.replace(new RegExp(`\\s*<link rel="modulepreload"[^>]*href="/${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*>`), '');
  if (!html.includes(`src="/${newFile}"`)) throw new Error(`${htmlFile} does not load ${oldFile}`);
  writeFileSync(htmlPath, html);

  manifest[htmlFile] = { ...entry, file: newFile, imports: [] };
  writeFileSync(manifestFile, JSON.stringify(manifest, null, 2));
  // the old entry chunk goes, unless another chunk imports it
  const imported = Object.values(manifest).some((chunk) => [...(chunk.imports ?? []), ...(chunk.dynamicImports ?? [])].includes(htmlFile));
  if (!imported) for (const file of [oldFile, `${oldFile}.map`]) if (existsSync(join(clientDir, file))) rmSync(join(clientDir, file));
  return newFile;
}
