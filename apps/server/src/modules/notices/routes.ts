import { userNoticesView } from '@freight/contracts/notices';
import { emptyResponse, okResponse } from '@freight/contracts/responses';
import { idBody } from '@freight/contracts/roles';
import { MAX_INT4, str } from '@freight/contracts/validation';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/context.ts';
import { markNoticeRead, unreadNotices } from './service.ts';

/** The signed-in user's system notices (SPEC section 2 "Notice popups"). */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/admin/notice/userNotices',
    {
      schema: {
        tags: ['notices'],
        // The client sends its token and type 0 (SPEC section 7); both are accepted and not needed.
        body: z.object({
          type: z
            .union([
              z.number().int().min(0).max(MAX_INT4),
              str()
                .regex(/^\d{1,9}$/)
                .transform(Number),
            ])
            .optional(),
          token: str().max(200).optional(),
        }),
        response: { 200: okResponse(userNoticesView) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const rows = await unreadNotices(app.db, me.tenantId, me.id);
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

  app.post(
    '/admin/notice/read',
    { schema: { tags: ['notices'], body: idBody, response: { 200: emptyResponse } } },
    async (request) => {
      const me = currentUser(request);
      if (!(await markNoticeRead(app.db, me.tenantId, me.id, request.body.id))) throw notFound();
      return null;
    },
  );
};

export default routes;
