import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { aliases } from './vite.aliases.ts';
import { stacklessReactSentinels } from './scripts/react-sentinels.ts';

// The chunks of the pre-rendered pages' code (their entries, the landing page's header and hero,
// named after the header, and its sections): the importers whose dynamic imports get no
// modulepreload links.
const PRE_RENDERED_CODE = /(^|\/)(landing|legal|below-the-fold|site-header)[\w-]*\.js$/;

// recharts and the packages only it uses: the console's chart pages' chunk (e2e/admin-console.spec.ts
// checks that the console's other pages do not load it)
const CHARTS = /[\\/]node_modules[\\/](recharts|@reduxjs[\\/]toolkit|redux|redux-thunk|react-redux|reselect|immer|victory-vendor|d3-[a-z-]+|internmap|decimal\.js-light|es-toolkit|eventemitter3|tiny-invariant|use-sync-external-store|react-is)[\\/]/;

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss(), stacklessReactSentinels()],
  resolve: { alias: aliases },
  // the server renderer carries its React with it, so it runs from any CLIENT_DIR
  ssr: { noExternal: true },
  build: isSsrBuild
    ? // the landing page's server renderer (src/client/prerender.tsx), see scripts/build-client.mjs
      { outDir: 'dist/client/ssr', emptyOutDir: true, copyPublicDir: false }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        // nothing under dist/client is private: a source map would publish the client's whole
        // source (sourcesContent), the operator console's included; scripts/build-client.mjs
        // refuses a build that still holds one
        sourcemap: false,
        // scripts/single-file-entry.mjs and bench/initial-js.mjs follow the entries' imports through
        // it; the server never serves .vite/ (src/server/http/spa.ts)
        manifest: true,
        // index.html is the app; landing.html and legal.html the pre-rendered pages' own, lighter entries (decisions 015, 019)
        rolldownOptions: {
          input: { index: 'index.html', landing: 'landing.html', legal: 'legal.html' },
          // The console's charts load on their own (the overview's chart, the Funnel and Retention
          // pages); without a chunk of their own the charting library and its dependencies (~400 kB)
          // went into the chunk all three are imported from, the whole console's. Only the packages
          // nothing else uses: with its dependencies followed, React itself would have moved there.
          output: { codeSplitting: { groups: [{ name: 'charts', test: CHARTS, includeDependenciesRecursively: false }] } },
        },
        // The pre-rendered pages' code loads after their HTML is on screen and nothing waits on it.
        // For each dynamic import Vite's helper appends a <link rel="modulepreload"> per chunk it
        // needs, in the task that imports: ~20 for the landing page's sections, inside one of
        // React's hydration slices, each link a DOM insertion and a request started (a third of
        // the page's script time after the paint). Without them the browser still fetches a
        // chunk's static imports as soon as it has parsed it (docs/decisions/020).
        //
        // No polyfill: every browser the site serves has <link rel="modulepreload"> (Chromium 66,
        // Firefox 115, Safari 17), and one without it still loads each chunk when it is imported,
        // only without the head start. Vite puts the polyfill in the pre-rendered pages' entries and
        // again in the chunk the landing page's islands import: twice in its JavaScript before
        // interaction (issue 50).
        modulePreload: { polyfill: false, resolveDependencies: (_file, deps, { hostId }) => (PRE_RENDERED_CODE.test(hostId) ? [] : deps) },
      },
  server: {
    port: 5173,
    // the API server (npm run dev starts both) answers /api, /healthz and /readyz
    proxy: {
      '/api': 'http://localhost:3000',
      '/healthz': 'http://localhost:3000',
      '/readyz': 'http://localhost:3000',
    },
  },
}));
