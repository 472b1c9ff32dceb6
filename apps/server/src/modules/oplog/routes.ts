import { okResponse, xlsxResponse } from '@freight/contracts/responses';
import { operationLogListView, operationLogQuery } from '@freight/contracts/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendXlsx } from '../../lib/xlsx.ts';
import { allOperationLogs, listOperationLogs } from './service.ts';

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
      return { ...result, list: result.list.map(({ detail: _d, tenantId: _t, ...row }) => row) };
    },
  );

  app.post(
    '/admin/operationLog/export',
    {
      config: { permission: 'operation-log:export', raw: true },
      schema: { tags: ['oplog'], body: operationLogQuery, response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const { page: _p, limit: _l, ...filter } = request.body;
      const rows = await allOperationLogs(app.db, request.tenant.id, filter);
      const en = request.language === 'en-US';
      return sendXlsx(
        reply,
        en ? 'operation-log.xlsx' : '操作日志.xlsx',
        [
          { header: en ? 'Time' : '时间', value: (r) => r.createdAt },
          { header: en ? 'User' : '用户', value: (r) => r.userEmail, width: 28 },
          { header: en ? 'Action' : '操作', value: (r) => r.action },
          { header: en ? 'Target' : '对象', value: (r) => r.target },
          { header: en ? 'Result code' : '结果码', value: (r) => r.resultCode, width: 10 },
          { header: 'IP', value: (r) => r.ip },
          { header: en ? 'Path' : '接口', value: (r) => r.path, width: 36 },
          { header: en ? 'Request id' : '请求编号', value: (r) => r.requestId },
        ],
        rows,
      );
    },
  );
};

export default routes;
