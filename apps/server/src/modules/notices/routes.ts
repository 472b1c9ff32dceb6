import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/** The signed-in user's pop-up notices (SPEC section 2); notice publishing arrives with its own module. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/admin/notice/userNotices',
    {
      schema: {
        tags: ['notices'],
        body: z.object({ type: z.coerce.number().int().optional(), token: z.string().optional() }),
      },
    },
    async () => ({ list: [] as unknown[] }),
  );
};

export default routes;
