import { translate } from '@freight/contracts/messages';
import { orderListQuery } from '@freight/contracts/truck-orders';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import { orderExportRows } from './service.ts';

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
    const staff = user.identity === 'employee';
    const columns: ExportColumn<Row>[] = [
      { header: t('orderField.orderNo'), value: (o) => o.orderNo, width: 22 },
      { header: t('orderField.customerOrderNo'), value: (o) => o.customerOrderNo },
      { header: t('orderField.queryCode'), value: (o) => o.queryCode },
      { header: t('orderField.status'), value: (o) => t(`orderStatus.${o.status}`) },
      { header: t('orderField.mode'), value: (o) => o.mode, width: 8 },
      { header: t('orderField.carrier'), value: (o) => o.carrier },
      { header: t('orderField.origin'), value: (o) => o.origin, width: 28 },
      { header: t('orderField.destination'), value: (o) => o.destination, width: 28 },
      { header: t('orderField.freight'), value: (o) => o.freight },
      { header: t('orderField.fuel'), value: (o) => o.fuel },
      { header: t('orderField.surcharge'), value: (o) => o.surcharge },
      { header: t('orderField.premium'), value: (o) => o.premium },
      { header: t('orderField.total'), value: (o) => o.total },
      ...(staff ? [{ header: t('orderField.costPrice'), value: (o: Row) => o.costPrice }] : []),
      { header: t('orderField.agentPrice'), value: (o) => o.agentPrice },
      { header: t('orderField.branchPrice'), value: (o) => o.branchPrice },
      { header: t('orderField.createdAt'), value: (o) => o.createdAt.toISOString(), width: 24 },
    ];
    return { columns: columns as ExportColumn<unknown>[], count: rows.count, pages: rows.pages };
  },
});
