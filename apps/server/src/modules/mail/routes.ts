import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listOutbox } from './service.ts';

/**
 * The dev mailbox: with no SMTP configured, the messages the portal would have sent, so codes and
 * reset links can be read on a laptop. It does not exist when SMTP is configured.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  if (app.config.SMTP_URL || app.config.NODE_ENV === 'production') return;
  app.get(
    '/dev/mailbox',
    {
      config: { public: true },
      schema: { tags: ['dev'], querystring: z.object({ to: z.string().optional() }) },
    },
    async (request) => {
      const rows = await listOutbox(app.db, request.tenant.id, request.query.to);
      return {
        list: rows.map((r) => ({
          id: r.id,
          to: r.to,
          subject: r.subject,
          text: r.text,
          createdAt: r.createdAt,
        })),
      };
    },
  );
};

export default routes;
