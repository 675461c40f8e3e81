// The server's production build: one ES module, dist/server/main.js, compiled from
// src/server/main.ts by esbuild. Packages stay in node_modules (imported at run time, as in
// development), but for the mail components: their package's entry loads every component
// (Tailwind, code highlighting, Markdown), ~30 MB of memory for the few the mails use. The path
// aliases of tsconfig.json are resolved into the bundle. Migrations and content are read at run
// time from the project folder (src/server/project-root.ts).
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Every package import stays external, except @react-email/components and the component packages
 * it gathers: bundled, only the components the mails use are kept. Its re-export of
 * @react-email/render (which the server imports directly, external) is cut, as an `export *`
 * from an external module would keep every component.
 */
const mailComponents = {
  name: 'mail-components',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@shared/') || args.path.startsWith('@server/')) return undefined;
      const fromComponents = args.importer.includes('/node_modules/@react-email/components/');
      if (fromComponents && args.path === '@react-email/render') return { path: args.path, namespace: 'cut' };
      if (args.path === '@react-email/components' || (fromComponents && args.path.startsWith('@react-email/'))) return undefined;
      return { path: args.path, external: true };
    });
    build.onLoad({ filter: /.*/, namespace: 'cut' }, () => ({ contents: '', loader: 'js' }));
  },
};

/** Compiles the server into `outdir` (dist/server; a test's own folder must sit inside the project). */
export async function buildServer(root, outdir = join(root, 'dist/server')) {
  // loaded only to build: a start that builds nothing does not pay for it
  const { build } = await import('esbuild');
  await rm(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'src/server/main.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    // a module the server imports only when needed (mail templates) becomes a chunk of its own, so
    // its packages load with it rather than at start
    splitting: true,
    target: 'node20.19',
    plugins: [mailComponents],
    // the ES module builds of the bundled packages, which can be tree-shaken
    mainFields: ['module', 'main'],
    tsconfig: 'tsconfig.json',
    // stack traces point at the TypeScript sources (node --enable-source-maps)
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}
