import { defineConfig } from 'vitest/config';

/**
 * The whole suite runs on PostgreSQL, where row-level security binds a role that is no superuser and
 * row locks are taken across sessions. The embedded database (PGlite) is the same PostgreSQL engine
 * behind one in-process superuser session, so on it run only the files about what can differ there:
 * its start and stop, its crash and restart, the code that takes another road on it (bulk statements,
 * the job queue's adapter, export pages, batch chunks on its one connection, cache events, the
 * housekeeping guard), the tenant scope and its policies, and money on the database `npm start` gives.
 * README "Tests" says which tests run where and why.
 */
const EMBEDDED = [
  'src/db/tenant-scope.test.ts',
  'src/jobs/queue.test.ts',
  'src/lib/bulk-insert.test.ts',
  'src/modules/accounts/accounts.test.ts',
  'src/modules/downloads/downloads.test.ts',
  // A channel's rating rules priced on quotes: the carriers' billing rules hold on both databases.
  'src/modules/express-channels/rating-rules.test.ts',
  'src/modules/truck-orders/batch.test.ts',
  'test/caches-across-processes.test.ts',
  'test/concurrent-payments.test.ts',
  'test/crash.test.ts',
  'test/health.test.ts',
  'test/housekeeping.test.ts',
  'test/row-level-security.test.ts',
  'test/shutdown.test.ts',
  'test/startup.test.ts',
];

/**
 * Files that patch the process itself: timers spied on, and modules loaded afresh for a second server
 * copy. Each runs in a process of its own; every other file
 * shares its worker's loaded modules with the files before it, which saves loading the app for each
 * file. Module-level caches are keyed by database handle, so files on their own databases never share
 * an entry (lib/short-cache.ts `handleKey`).
 */
const OWN_PROCESS = [
  'test/decompression-bombs.test.ts',
  'test/housekeeping.test.ts',
  // A second copy of the server from a fresh load of its modules (test/second-copy.ts resets and mocks
  // modules), which must not touch the modules the worker's other files share.
  'src/modules/integrations/keys-across-processes.pg.test.ts',
  'test/caches-across-processes.test.ts',
  'test/pricing-caches-across-processes.test.ts',
];

// `npm test` names the embedded pass; a file run by hand, or the suite where no PostgreSQL answers,
// runs on the embedded database whole.
const embeddedPass = process.env.TEST_DB === 'pglite';
const onPostgres = process.env.TEST_DB === 'pg';

const include = embeddedPass ? EMBEDDED : ['src/**/*.test.ts', 'test/**/*.test.ts'];
// `*.pg.test.ts` need a server: a connection to cut, row locks across sessions, a role to bind.
const exclude = ['**/node_modules/**', ...(onPostgres ? [] : ['**/*.pg.test.ts'])];
const ownProcess = OWN_PROCESS.filter((file) => include.some((i) => i === file || i.includes('*')));

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Migrates one template database per run; each file's database is a copy of it.
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Two cores: two files at a time, each on its own database.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'shared', include, exclude: [...exclude, ...ownProcess], isolate: false },
      },
      ...(ownProcess.length > 0
        ? [{ extends: true as const, test: { name: 'own-process', include: ownProcess, exclude } }]
        : []),
    ],
  },
});
