import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Waiting counts for the menu badges (SPEC section 4). Recharges and their review arrive with the
 * customers-and-money module; until then nothing waits.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('/admin/recharge/waitNum', { schema: { tags: ['recharge'] } }, async () => ({
    waitNum: 0,
    expressWaitNum: 0,
  }));
};

export default routes;
