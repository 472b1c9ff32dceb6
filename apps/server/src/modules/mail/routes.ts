import { mailboxResponse } from '@freight/contracts/common';
import { str } from '@freight/contracts/validation';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.ts';
import { escapeHtml } from '../../lib/html.ts';
import { listOutbox } from './service.ts';

const isLoopback = (ip: string) => ip === '::1' || ip.startsWith('127.') || ip === '::ffff:127.0.0.1';

/** The mailbox as a page: what a browser gets when it opens the same address. */
function mailboxPage(rows: { to: string; subject: string; text: string; createdAt: Date }[]): string {
  const items = rows
    .map(
      (r) =>
        `<article><header><strong>${escapeHtml(r.subject)}</strong><span>${escapeHtml(r.to)} · ${r.createdAt.toISOString()}</span></header><pre>${escapeHtml(r.text)}</pre></article>`,
    )
    .join('');
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><title>开发邮箱 · Dev mailbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:880px;margin:32px auto;padding:0 16px;color:#222}h1{font-size:22px}
article{border:1px solid #eee;border-radius:8px;padding:12px 16px;margin:12px 0}header{display:flex;justify-content:space-between;gap:12px;flex-wrap:wrap}
header span{color:#888;font-size:13px}pre{white-space:pre-wrap;word-break:break-all;font-family:inherit;margin:8px 0 0}p{color:#666}</style></head>
<body><h1>开发邮箱 · Dev mailbox</h1><p>未配置 SMTP 时,系统发出的邮件保存在这里。No SMTP is configured: the portal's mail is kept here.</p>
${items || '<p>暂无邮件 · No mail yet</p>'}</body></html>`;
}

/**
 * The dev mailbox: with no SMTP configured, the messages the portal would have sent, so codes and
 * reset links can be read on a laptop. JSON for tools, a page for a browser; only from this machine,
 * never in production, and not at all when SMTP is configured.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  if (app.config.SMTP_URL || app.config.NODE_ENV === 'production') return;
  app.get(
    '/dev/mailbox',
    {
      config: { public: true, raw: true },
      schema: {
        tags: ['dev'],
        querystring: z.object({ to: str().max(254).optional() }),
        response: { 200: mailboxResponse },
      },
    },
    async (request, reply) => {
      // Only from this machine: a server that forgot NODE_ENV=production still never shows codes to others.
      if (!isLoopback(request.ip)) throw notFound();
      const rows = await listOutbox(app.db, request.tenant.id, request.query.to);
      if (String(request.headers.accept ?? '').includes('text/html')) {
        return reply.type('text/html; charset=utf-8').send(mailboxPage(rows));
      }
      return {
        code: 200,
        msg: 'ok',
        data: {
          list: rows.map((r) => ({
            id: r.id,
            to: r.to,
            subject: r.subject,
            text: r.text,
            createdAt: r.createdAt,
          })),
        },
      };
    },
  );
};

export default routes;
