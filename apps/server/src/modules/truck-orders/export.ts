import { translate } from '@freight/contracts/messages';
import { orderListQuery } from '@freight/contracts/truck-orders';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import { orderExportRows } from './list.ts';

type Row =
  Awaited<ReturnType<typeof orderExportRows>> extends { pages(size: number): AsyncGenerator<(infer R)[]> }
    ? R
    : never;

/** `/admin/order/export`: the order list's filters as a spreadsheet, in the caller's language. */
export const truckOrderExport = defineExport({
  name: 'truck-orders',
  fileName: { 'zh-CN': '卡车订单.xlsx', 'en-US': 'truck-orders.xlsx' },
  params: orderListQuery,
  permission: 'order:export',
  async source(db, user, params, language) {
    const rows = await orderExportRows(db, user, params);
    const t = (key: string) => translate(language, key as never);
    // The columns the list shows this caller: staff every level and the cost; a branch its own price
    // and its agents'; an agent its own; a customer none of them (absent, never empty).
    const staff = user.identity === 'employee';
    const seesBranch = staff || user.identity === 'branch';
    const seesAgent = seesBranch || user.identity === 'agent';
    const money = (header: string, value: (o: Row) => string | null): ExportColumn<Row> => ({
      header,
      type: 'money',
      value,
    });
    const columns: ExportColumn<Row>[] = [
      { header: t('orderField.orderNo'), value: (o) => o.orderNo, width: 22 },
      { header: t('orderField.customerOrderNo'), value: (o) => o.customerOrderNo },
      { header: t('orderField.queryCode'), value: (o) => o.queryCode },
      { header: t('orderField.status'), value: (o) => t(`orderStatus.${o.status}`) },
      { header: t('orderField.mode'), value: (o) => o.mode, width: 8 },
      { header: t('orderField.carrier'), value: (o) => o.carrier },
      { header: t('orderField.origin'), value: (o) => o.origin, width: 28 },
      { header: t('orderField.destination'), value: (o) => o.destination, width: 28 },
      money(t('orderField.freight'), (o) => o.freight),
      money(t('orderField.fuel'), (o) => o.fuel),
      money(t('orderField.surcharge'), (o) => o.surcharge),
      money(t('orderField.premium'), (o) => o.premium),
      money(t('orderField.total'), (o) => o.total),
      ...(staff ? [money(t('orderField.costPrice'), (o) => o.costPrice)] : []),
      ...(seesAgent ? [money(t('orderField.agentPrice'), (o) => o.agentPrice)] : []),
      ...(seesBranch ? [money(t('orderField.branchPrice'), (o) => o.branchPrice)] : []),
      { header: t('orderField.createdAt'), type: 'time', value: (o) => o.createdAt },
    ];
    return { columns: columns as ExportColumn<unknown>[], count: rows.count, pages: rows.pages };
  },
});
