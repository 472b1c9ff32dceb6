import { createReadStream } from 'node:fs';
import {
  DOWNLOAD_PAGE,
  downloadCountView,
  downloadIdBody,
  downloadListQuery,
  downloadListView,
  downloadSeenBody,
  downloadView,
} from '@freight/contracts/downloads';
import { emptyResponse, okResponse, XLSX_TYPE, xlsxResponse } from '@freight/contracts/responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/context.ts';
import { EXPORT_QUEUE, exportKind, queueExport, runExportJob } from './runner.ts';
import {
  countExportFiles,
  deleteExportFile,
  listExportFiles,
  markExportsSeen,
  present,
  readyExportFile,
  resetExportFile,
} from './service.ts';

/**
 * The download centre (`/downloadCenter`): the signed-in user's own exports. Every call sees only the
 * caller's files in the caller's tenant; anyone else's id is not found. The page is granted to everyone
 * signed in, as the top bar's count is.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;
  const page = { permission: DOWNLOAD_PAGE } as const;
  const dataDir = app.config.DATA_DIR;

  app.jobs.work<{ exportId: number }>(EXPORT_QUEUE, (job) => runExportJob(app, job));

  app.post(
    '/admin/download/list',
    {
      config: page,
      schema: {
        tags: ['downloads'],
        body: downloadListQuery,
        response: { 200: okResponse(downloadListView) },
      },
    },
    async (request) => listExportFiles(db, currentUser(request), request.body),
  );

  app.post(
    '/admin/download/count',
    {
      config: page,
      schema: { tags: ['downloads'], response: { 200: okResponse(downloadCountView) } },
    },
    async (request) => countExportFiles(db, currentUser(request)),
  );

  app.post(
    '/admin/download/seen',
    {
      config: page,
      schema: { tags: ['downloads'], body: downloadSeenBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      await markExportsSeen(db, currentUser(request), request.body.ids);
      return null;
    },
  );

  app.post(
    '/admin/download/retry',
    {
      config: { ...page, audit: 'download.retry' },
      schema: { tags: ['downloads'], body: downloadIdBody, response: { 200: okResponse(downloadView) } },
    },
    async (request, reply) => {
      const row = await resetExportFile(db, currentUser(request), request.body.id);
      await queueExport(app, row);
      request.auditTarget = `download:${row.id}`;
      reply.messageKey = 'download.retried';
      return present(row);
    },
  );

  app.post(
    '/admin/download/delete',
    {
      config: { ...page, audit: 'download.delete' },
      schema: { tags: ['downloads'], body: downloadIdBody, response: { 200: emptyResponse } },
    },
    async (request, reply) => {
      await deleteExportFile(db, dataDir, currentUser(request), request.body.id);
      request.auditTarget = `download:${request.body.id}`;
      reply.messageKey = 'download.deleted';
      return null;
    },
  );

  /** The file itself, streamed from disk; it counts as seen once downloaded. */
  app.post(
    '/admin/download/file',
    {
      config: { ...page, raw: true },
      schema: { tags: ['downloads'], body: downloadIdBody, response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { row, path } = await readyExportFile(db, dataDir, me, request.body.id);
      const stream = createReadStream(path);
      // A file swept or removed between the check and the read is a 404, not a broken download.
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      }).catch(() => {
        stream.destroy();
        throw notFound('download.notReady');
      });
      await markExportsSeen(db, me, [row.id]);
      const base = (exportKind(row.kind)?.fileName[row.language] ?? 'export.xlsx').replace(/\.xlsx$/, '');
      return reply
        .header('content-type', XLSX_TYPE)
        .header('content-length', row.sizeBytes)
        .header(
          'content-disposition',
          `attachment; filename*=UTF-8''${encodeURIComponent(`${base}-${row.id}.xlsx`)}`,
        )
        .send(stream);
    },
  );
};

export default routes;
