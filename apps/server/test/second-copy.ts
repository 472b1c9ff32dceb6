import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, vi } from 'vitest';
import type { Database } from '../src/db/client.ts';
import type { Fixture } from './fixture.ts';

export interface SecondCopy {
  /** The second copy's app; set once the file's `beforeAll` has run. */
  readonly app: FastifyInstance;
}

/**
 * A second copy of the server on the fixture's database, built from a fresh load of the server's
 * modules as a second process would be: no cache in memory is shared, so it hears of the first
 * copy's changes only through the database. On PostgreSQL it opens a pool of its own; PGlite, one
 * embedded session, is shared. A `deaf` copy never hears the announcements made at each commit, as a
 * process would not yet have heard one still on its way: only what its own statements read tells it.
 */
export function useSecondCopy(f: Fixture, options: { deaf?: boolean } = {}): SecondCopy {
  let app: FastifyInstance | undefined;
  let ownDatabase: Database | undefined;

  beforeAll(async () => {
    vi.resetModules();
    if (options.deaf)
      vi.doMock('../src/db/cache-events.ts', async (importActual) => ({
        ...(await importActual<typeof import('../src/db/cache-events.ts')>()),
        listenForCacheChanges: () => ({ ready: Promise.resolve(), close: async () => {} }),
      }));
    const { buildApp } = await import('../src/app.ts');
    vi.doUnmock('../src/db/cache-events.ts');
    const { openDatabase } = await import('../src/db/client.ts');
    const { testConfig } = await import('../src/config.ts');
    if (f.ctx.database.kind === 'postgres') {
      const [row] = (
        (await f.db.execute(sql`select current_database() as name`)) as unknown as {
          rows: { name: string }[];
        }
      ).rows;
      const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
      url.pathname = `/${row?.name}`;
      ownDatabase = await openDatabase({ url: url.toString() });
    }
    app = await buildApp({
      config: testConfig({ DATA_DIR: `/tmp/fp-test-${process.pid}` }),
      database: ownDatabase ?? f.ctx.database,
      mailer: null,
      serveWeb: false,
    });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await ownDatabase?.close();
  });

  return {
    get app() {
      if (!app) throw new Error('the second copy starts in beforeAll');
      return app;
    },
  };
}
