import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.ts';
import { listOutbox } from './service.ts';

const isLoopback = (ip: string) => ip === '::1' || ip.startsWith('127.') || ip === '::ffff:127.0.0.1';

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
      // Only from this machine: a server that forgot NODE_ENV=production still never shows codes to others.
      if (!isLoopback(request.ip)) throw notFound();
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
