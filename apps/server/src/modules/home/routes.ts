import { okResponse } from '@freight/contracts/responses';
import { orderStatsView } from '@freight/contracts/truck-orders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/context.ts';
import { orderDashboard } from './service.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  /** The truck dashboards: today, this month, the last 30 days by day, statuses, waiting reviews, balance. */
  app.post(
    '/admin/order/stats',
    {
      config: { permission: ['/dashboard', '/truckHome'] },
      schema: { tags: ['orders'], response: { 200: okResponse(orderStatsView) } },
    },
    async (request) => orderDashboard(db, currentUser(request), new Date()),
  );
};

export default routes;
