import { defineConfig } from 'vitest/config';

// `*.pg.test.ts` run in the PostgreSQL pass only, and are not collected on the embedded database
// rather than skipped there: those that need a server to take away (a TCP connection to cut), and the
// cross-tenant sweep, whose subject is the tenant boundary that only PostgreSQL enforces twice (row-level
// security binds its non-superuser role; PGlite's one superuser session goes around it) and whose every
// route the module tests run on both databases. README "Tests" says which tests run where.
const onPostgres = process.env.TEST_DB === 'pg';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(onPostgres ? [] : ['**/*.pg.test.ts'])],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Migrates one template database per run; each file's database is a copy of it.
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Two cores: two files at a time, each on its own database.
    maxWorkers: 2,
  },
});
