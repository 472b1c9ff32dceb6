import { ResultCode } from '@freight/contracts/api';
import { okResponse } from '@freight/contracts/responses';
import { healthView, readinessView } from '@freight/contracts/status';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.ts';
import { version } from '../../version.ts';
import { probeDatabase, readiness } from './service.ts';

const startedAt = Date.now();

/**
 * The public status page's data (`/test`, `/test2`, `/ceshi`) and the load balancer's two checks:
 * `/health` says the process is alive (always 200; the database's state is shown, not required),
 * `/health/ready` says it may take traffic (503 in the envelope while the database is away, its
 * schema behind, or the process shutting down).
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  let shuttingDown = false;
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });

  app.get(
    '/health',
    {
      config: { public: true, probe: true },
      schema: { tags: ['status'], response: { 200: okResponse(healthView) } },
    },
    async () => ({
      version,
      serverTime: new Date().toISOString(),
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      database: { kind: app.database.kind, ...(await probeDatabase(app.db)) },
    }),
  );

  app.get(
    '/health/ready',
    {
      config: { public: true, probe: true },
      schema: { tags: ['status'], response: { 200: okResponse(readinessView) } },
    },
    async () => {
      const state = await readiness(app.db, shuttingDown);
      if (state.ready) return state;
      const key = state.database.ok ? 'error.notReady' : 'error.databaseUnavailable';
      throw new AppError(ResultCode.Unavailable, key, {}, undefined, state);
    },
  );
};

export default routes;
