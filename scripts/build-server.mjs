// The server's production build: one ES module, dist/server/main.js, compiled from
// src/server/main.ts by esbuild. Packages stay in node_modules (imported at run time, as in
// development); the path aliases of tsconfig.json are resolved into the bundle. Migrations and
// content are read at run time from the project folder (src/server/project-root.ts).
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

export async function buildServer(root) {
  // loaded only to build: a start that builds nothing does not pay for it
  const { build } = await import('esbuild');
  const outdir = join(root, 'dist/server');
  await rm(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'src/server/main.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    packages: 'external',
    tsconfig: 'tsconfig.json',
    // stack traces point at the TypeScript sources (node --enable-source-maps)
    sourcemap: 'linked',
    logLevel: 'warning',
  });
}
