import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { listenForCacheChanges } from '../db/cache-events.ts';
import { forgetCachedSessions } from '../modules/auth/service.ts';
import { forgetMarkups } from '../modules/customers/price-levels.ts';
import { forgetChannels } from '../modules/express-channels/service.ts';
import { forgetCachedGrants } from '../modules/roles/service.ts';
import { forgetTariffs } from '../modules/truck-products/service.ts';

/**
 * Keeps this process's caches in step with every other process's writes (db/cache-events.ts). The
 * app starts once the listener is in place, or after a short wait if the database will not have it
 * yet; it keeps trying, and the caches' own short lives bound what is missed meanwhile.
 */
export const cacheEventsPlugin = fp(async (app: FastifyInstance) => {
  const listener = listenForCacheChanges(
    app.database,
    (cache, tenantId) => {
      if (cache === 'tenants') app.forgetTenant();
      else if (cache === 'sessions') forgetCachedSessions();
      else if (cache === 'grants') forgetCachedGrants();
      else if (cache === 'tariffs') forgetTariffs(tenantId);
      else if (cache === 'channels') forgetChannels(tenantId);
      else forgetMarkups(tenantId);
    },
    app.log,
  );
  app.addHook('onClose', () => listener.close());
  let waited: NodeJS.Timeout | undefined;
  await Promise.race([
    listener.ready,
    new Promise<void>((resolve) => {
      waited = setTimeout(resolve, 5_000);
    }),
  ]);
  clearTimeout(waited);
});
