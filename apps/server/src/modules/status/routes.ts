import { okResponse } from '@freight/contracts/responses';
import { healthView } from '@freight/contracts/status';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { version } from '../../version.ts';

const startedAt = Date.now();

/** The public status page's data (`/test`, `/test2`, `/ceshi`): version, time, database health. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    { config: { public: true }, schema: { tags: ['status'], response: { 200: okResponse(healthView) } } },
    async () => {
      const t0 = performance.now();
      let ok = true;
      try {
        await app.db.execute(sql`select 1`);
      } catch {
        ok = false;
      }
      return {
        version,
        serverTime: new Date().toISOString(),
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        database: {
          kind: app.database.kind,
          ok,
          latencyMs: Math.round((performance.now() - t0) * 100) / 100,
        },
      };
    },
  );
};

export default routes;
