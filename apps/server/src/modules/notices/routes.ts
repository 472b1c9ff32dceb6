import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/context.ts';
import { takeUndelivered } from './service.ts';

/** The signed-in user's pop-up notices (SPEC section 2): each is handed out once. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/admin/notice/userNotices',
    {
      schema: {
        tags: ['notices'],
        body: z.object({ type: z.coerce.number().int().optional(), token: z.string().optional() }),
      },
    },
    async (request) => {
      const me = currentUser(request);
      const rows = await takeUndelivered(app.db, me.tenantId, me.id);
      return {
        list: rows.map((n) => ({
          id: n.id,
          type: n.type,
          title: n.title,
          content: n.content,
          pop_theme: '',
          order_type: n.orderType,
          order_sn: n.orderSn,
        })),
      };
    },
  );
};

export default routes;
