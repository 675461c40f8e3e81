import { defineConfig, devices } from '@playwright/test';
import { emptyDatabases } from './e2e/empty-databases.ts';

// E2E_PORT and CLIENT_DIR let several developers run suites side by side
const PORT = Number(process.env.E2E_PORT ?? 3100);
// Every run starts from empty embedded databases, one a server. Playwright loads this file again in
// each browser's worker, which starts no server: only the runner makes them.
const SERVERS = ['desktop', 'trials', 'server-wide'];
const [dataDir = '', trialsDataDir = '', serverWideDataDir = ''] = process.env.TEST_WORKER_INDEX === undefined ? await emptyDatabases(SERVERS) : [];
// The free-trial journeys run against a second server with TRIAL_DAYS=7 (the others expect charges).
const TRIALS_PORT = PORT + 1;
const TRIALS = /trials\.spec\.ts/;

// Journeys spend most of their time waiting on the app's own delays (redirects after 1–2.5 s,
// the reconciler's tick), not on the CPU: the whole run keeps about half a core busy with one
// browser, so three browsers at once still leave a busy 2-core machine room.
const WORKERS = Number(process.env.E2E_WORKERS ?? 3);
// Simulates a TradingView outage for the whole server: it has a server of its own, so it runs
// beside the other journeys rather than alone after them.
const SERVER_WIDE_PORT = PORT + 2;
const SERVER_WIDE = /(admin-tradingview|catalogue)\.spec\.ts/;
const DESKTOP = { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } };

export default defineConfig({
  testDir: 'e2e',
  // Every test makes its own buyers and members (unique e-mails and visitor addresses), so tests
  // of one file may run side by side; a group that shares one member is marked serial.
  fullyParallel: true,
  workers: WORKERS,
  retries: 0,
  // Bounds for waits that never come true, not for speed: every step waits on what the page
  // shows, and on a busy 2-core machine one page can take seconds to render.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]] : [['list']],
  // its own folder: Playwright empties outputDir at start, and the Vitest reports beside it must stay
  outputDir: 'test-results/playwright',
  use: {
    baseURL: `http://localhost:${PORT}`,
    // A failed test keeps its trace (actions, DOM snapshots, console and network) when run alone, as
    // `npm run test:e2e -- <file>`. Not in `npm test` (CI), where recording every test's trace
    // took a tenth of the run (217 s → 194 s alone) for traces nobody opens: a failure there
    // keeps its error, the page's ARIA snapshot and a screenshot. Never the screencast: its frames
    // kept the browser's compositor busy through every test (316 s → 217 s for the run alone).
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    // A visitor who asked for less motion (the site honours it): the landing page's carousel and
    // floating card otherwise kept the renderer drawing a frame every 16 ms through every journey
    // that passes it (461 → 414 s of CPU for the run). The landing page's own journeys keep the
    // motion (landing.spec.ts).
    reducedMotion: 'reduce',
    launchOptions: {
      // Debian's Chromium headless shell (test tools never download browsers here): the browser
      // Playwright itself runs headless tests in. The full Chromium in headless mode took a third
      // more CPU for the same journeys (622 → 416 s), and the browser tests are bound by the CPU.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
  },
  // Workers take the projects' tests in this order: the two small projects hold long journeys,
  // which started last made the run wait on one browser at its end.
  projects: [
    { name: 'server-wide', testMatch: SERVER_WIDE, use: { ...DESKTOP, baseURL: `http://localhost:${SERVER_WIDE_PORT}` } },
    { name: 'trials', testMatch: TRIALS, use: { ...DESKTOP, baseURL: `http://localhost:${TRIALS_PORT}` } },
    { name: 'desktop', testIgnore: [SERVER_WIDE, TRIALS], use: DESKTOP },
  ],
  webServer: [
    webServer(PORT, dataDir),
    webServer(TRIALS_PORT, trialsDataDir, { TRIAL_DAYS: '7' }),
    webServer(SERVER_WIDE_PORT, serverWideDataDir),
  ],
});

/** One compiled server for the journeys, on `port` with its own embedded database in `dir` (`extra`: more configuration). */
function webServer(port: number, dir: string, extra: Record<string, string> = {}) {
  return {
    // the compiled server, built first when its sources changed (CLIENT_DIR is the caller's build)
    command: 'node scripts/start.mjs',
    url: `http://localhost:${port}/readyz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: {
      // Not 'production': the journeys read reset links in the sandbox outbox, which production
      // closes to everyone but operators. The client is still the production build.
      NODE_ENV: 'test',
      // Playwright stands in for a local reverse proxy: the x-forwarded-for a test sets names the
      // simulated visitor, so per-address limits see many visitors rather than one.
      TRUST_PROXY: '127.0.0.1,::1',
      PORT: String(port),
      PUBLIC_URL: `http://localhost:${port}`,
      DATA_DIR: dir,
      LOG_LEVEL: 'warn',
      SALE_ENDS_AT: '2099-11-26T23:59:59',
      SANDBOX_TRADINGVIEW_MISSING_USERNAMES: 'ghost_trader',
      // the operator of the admin-*.spec.ts journeys; the sandbox mailbox stays open to all (outboxIsPublic)
      ADMIN_EMAILS: 'operator@example.com,ops-tradingview@example.com,ops-2fa@example.com,ops-squatted@example.com,ops-promo@example.com,ops-support@example.com,ops-usernames@example.com,ops-content@example.com,ops-news@example.com,ops-affiliates@example.com,ops-catalogue@example.com,ops-pricelists@example.com,ops-retention@example.com,ops-retention-offers@example.com,ops-funnel@example.com,ops-polish@example.com,ops-walk@example.com,ops-locale@example.com,ops-invite@example.com,ops-winback@example.com,ops-winback-code@example.com,ops-numbers@example.com',
      // as in production: the admin journeys enrol an authenticator app before the console opens
      OPERATOR_REQUIRE_2FA: 'true',
      RECONCILER_INTERVAL_MS: '1000',
      // Sales tax on, as a live EU-selling shop runs it: the checkout's billing country defaults to the
      // United States (no tax), so only a buyer who picks an EU country pays VAT (tax-and-invoices.spec.ts).
      STRIPE_TAX: 'true',
      CLIENT_DIR: process.env.CLIENT_DIR ?? 'dist/client',
      ...extra,
    },
  };
}
