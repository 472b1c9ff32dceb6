import { exportResponse } from '@freight/contracts/downloads';
import { oplogActionLabel } from '@freight/contracts/oplog';
import { okResponse } from '@freight/contracts/responses';
import { operationLogListView, operationLogQuery } from '@freight/contracts/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answerExport } from '../downloads/runner.ts';
import { operationLogExport } from './export.ts';
import { listOperationLogs } from './service.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/admin/operationLog/list',
    {
      config: { permission: '/operationLog' },
      schema: {
        tags: ['oplog'],
        body: operationLogQuery,
        response: { 200: okResponse(operationLogListView) },
      },
    },
    async (request) => {
      const { page, limit, ...filter } = request.body;
      const result = await listOperationLogs(app.db, request.tenant.id, filter, { page, limit });
      return {
        ...result,
        list: result.list.map(({ detail: _d, tenantId: _t, ...row }) => ({
          ...row,
          actionLabel: oplogActionLabel(row.action, request.language),
        })),
      };
    },
  );

  /** Few rows at once; more written by a job in the download centre (export.ts). */
  app.post(
    '/admin/operationLog/export',
    {
      config: { permission: 'operation-log:export', raw: true },
      schema: { tags: ['oplog'], body: operationLogQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, operationLogExport, request.body),
  );
};

export default routes;
