import { oplogActionLabel } from '@freight/contracts/oplog';
import { operationLogQuery } from '@freight/contracts/roles';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import { operationLogExportRows } from './service.ts';

type Row =
  ReturnType<typeof operationLogExportRows> extends { pages(size: number): AsyncGenerator<(infer R)[]> }
    ? R
    : never;

/** `/admin/operationLog/export`: the log's filters as a spreadsheet. */
export const operationLogExport = defineExport({
  name: 'operation-log',
  fileName: { 'zh-CN': '操作日志.xlsx', 'en-US': 'operation-log.xlsx' },
  params: operationLogQuery,
  permission: 'operation-log:export',
  async source(db, user, params, language) {
    const { page: _p, limit: _l, ...filter } = params;
    const rows = operationLogExportRows(db, user.tenantId, filter);
    const en = language === 'en-US';
    const columns: ExportColumn<Row>[] = [
      // The log's page shows seconds.
      {
        header: en ? 'Time' : '时间',
        type: 'time',
        format: 'yyyy-mm-dd hh:mm:ss',
        value: (r) => r.createdAt,
        width: 20,
      },
      { header: en ? 'User' : '用户', value: (r) => r.userEmail, width: 28 },
      { header: en ? 'Action' : '操作', value: (r) => oplogActionLabel(r.action, language), width: 24 },
      { header: en ? 'Target' : '对象', value: (r) => r.target },
      { header: en ? 'Result code' : '结果码', value: (r) => r.resultCode, width: 10 },
      { header: 'IP', value: (r) => r.ip },
      { header: en ? 'Path' : '接口', value: (r) => r.path, width: 36 },
      { header: en ? 'Request id' : '请求编号', value: (r) => r.requestId },
    ];
    return { columns: columns as ExportColumn<unknown>[], count: rows.count, pages: rows.pages };
  },
});
