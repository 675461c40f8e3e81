import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { aliases } from './vite.aliases.ts';
import { databaseSuites } from './src/server/test-support/database-suites.ts';

// Three projects because they need different environments: pure rules and the server run in
// Node, React components in jsdom. `npm test` runs the server project a second time against a
// Postgres server (TEST_DATABASE_URL) so that both database engines are proven: that pass takes
// only the suites that reach a database and that the engine could answer differently (database-suites.ts).
const onPostgresServer = Boolean(process.env.TEST_DATABASE_URL);
// The operator console writes dates in the operator's own time zone: its tests read them in UTC
// wherever they run (set before any worker starts, so every worker shares it).
process.env.TZ = 'UTC';
// expect.poll waits on state; its default limit (1 s) is a race on a busy 2-core machine, where
// a first mail (the templates load with it) has taken over 15 s.
const expect = { poll: { timeout: 45_000 } };
// Vitest's default (one worker less than the cores) leaves a 2-core machine one worker: its main
// process is idle while the workers run, so one worker a core, and one more. On a quiet machine
// the extra worker costs nothing measurable; on a busy one, where the other work takes the cores
// a runnable process at a time, it keeps the suite's share (two CPU hogs leave two workers one
// core between them, three workers 1.2), and on the Postgres server the suites also wait on
// another process.
const maxWorkers = availableParallelism() + 1;

export default defineConfig({
  resolve: { alias: aliases },
  test: {
    maxWorkers,
    // closing ends with the global teardown, which drops the run's databases on the Postgres
    // server and waits for their checkpoints: the default 10 s would cut it short on a busy machine
    teardownTimeout: 60_000,
    projects: [
      {
        resolve: { alias: aliases },
        // Worker threads start faster than the default child processes (about 15 % less CPU for
        // the client files); the server project keeps processes for its embedded databases.
        // the build scripts' rules are pure Node too
        test: { name: 'shared', environment: 'node', include: ['src/shared/**/*.test.ts', 'scripts/**/*.test.ts'], pool: 'threads' },
      },
      {
        resolve: { alias: aliases },
        test: {
          name: 'server',
          environment: 'node',
          include: onPostgresServer ? databaseSuites(resolve('src'), resolve('.')) : ['src/server/**/*.test.ts'],
          // a database server's own faults (a restart cutting every connection) exist only on the server pass
          exclude: onPostgresServer ? configDefaults.exclude : [...configDefaults.exclude, 'src/server/**/*.postgres.test.ts'],
          globalSetup: ['src/server/test-support/global-setup.ts'],
          // bounds for a wait that never comes true, as in the client project: on a busy 2-core
          // machine a first mail, which loads the mail templates, has taken over 15 s, and a suite's
          // app or database (a snapshot restored) over 60 s at load 24
          testTimeout: 60_000,
          hookTimeout: 120_000,
          expect,
          pool: 'forks',
          // The suites share no module state (no module mocks; every suite builds its own app and
          // database), so a worker imports the server once rather than once a file: 60 s of the run.
          isolate: false,
        },
      },
      {
        plugins: [react()],
        resolve: { alias: aliases },
        test: {
          name: 'client',
          environment: 'jsdom',
          include: ['src/client/**/*.test.tsx', 'src/client/**/*.test.ts'],
          setupFiles: ['src/client/test/setup.ts'],
          pool: 'threads',
          // One jsdom and one import of the client a worker rather than a fresh one a file: 30 s of
          // CPU instead of 88 s. The setup file puts back what a fresh page holds before each file.
          isolate: false,
          // Bounds for a wait that never comes true, not for speed: every wait is on state, and on
          // a busy 2-core machine a render that takes 50 ms alone can take seconds (twice the
          // Testing Library bound of src/client/test/setup.ts, so a test can make two waits).
          testTimeout: 60_000,
          hookTimeout: 60_000,
          expect,
        },
      },
    ],
  },
});
