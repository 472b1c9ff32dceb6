import { expressStatsView } from '@freight/contracts/express-waybills';
import { okResponse } from '@freight/contracts/responses';
import { orderStatsView } from '@freight/contracts/truck-orders';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../../plugins/context.ts';
import { expressDashboard, orderDashboard } from './service.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  /** The truck dashboards: today, this month, the last 30 days by day, statuses, waiting reviews, balance. */
  app.post(
    '/admin/order/stats',
    {
      config: { permission: ['/dashboard', '/truckHome'] },
      schema: { tags: ['orders'], response: { 200: okResponse(orderStatsView) } },
    },
    async (request) => orderDashboard(db, currentUser(request), new Date(), app.database.reader),
  );

  /** The express dashboards: waybills and revenue by day, statuses, exceptions, unpaid, reviews, balance. */
  app.post(
    '/express/order/stats',
    {
      config: { permission: ['/expressDashboard', '/expressHome'] },
      schema: { tags: ['express'], response: { 200: okResponse(expressStatsView) } },
    },
    async (request) => {
      const me = currentUser(request);
      // Waiting reviews are counted for staff holding the express review button (the menu badge's rule).
      const reviews = me.identity === 'employee' && me.grants.has('express-recharge:review');
      return expressDashboard(db, me, new Date(), reviews, app.database.reader);
    },
  );
};

export default routes;
