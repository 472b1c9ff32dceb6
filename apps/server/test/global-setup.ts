import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { ensurePgliteTemplate, ensurePostgresTemplate, migrationsDigest } from './database-template.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated embedded database every test file's copy starts from (a file path). */
    pgliteTemplate: string;
    /** The migrated PostgreSQL database every test file's database is created from (a name). */
    postgresTemplate: string;
  }
}

/** Compiles the server and migrates the run's template database once, before any test file starts. */
export default async function setup(project: TestProject) {
  // The tests that start the server in a process of its own run it compiled, as `npm start` does.
  execFileSync(
    process.execPath,
    [new URL('../../../scripts/ensure-server-build.mjs', import.meta.url).pathname],
    {
      stdio: 'inherit',
    },
  );
  const digest = migrationsDigest();
  if (process.env.TEST_DB === 'pg') {
    const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
    project.provide('postgresTemplate', await ensurePostgresTemplate(adminUrl, digest));
    project.provide('pgliteTemplate', '');
  } else {
    project.provide('pgliteTemplate', await ensurePgliteTemplate(digest));
    project.provide('postgresTemplate', '');
  }
}
