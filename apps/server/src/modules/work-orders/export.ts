import { translate } from '@freight/contracts/messages';
import { WORK_ORDER_PAGES, workOrderListQuery } from '@freight/contracts/work-orders';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import { workOrderExportRows } from './service.ts';

type Row =
  Awaited<ReturnType<typeof workOrderExportRows>> extends {
    pages(size: number): AsyncGenerator<(infer R)[]>;
  }
    ? R
    : never;

/** `/admin/workOrder/export`: a line's work orders of the list's filters, in the caller's language. */
export const workOrderExport = defineExport({
  name: 'work-orders',
  fileName: { 'zh-CN': '工单.xlsx', 'en-US': 'work-orders.xlsx' },
  params: workOrderListQuery,
  // The route lets in any work-order page; the rows source holds the caller to the line's pages.
  permission: [...WORK_ORDER_PAGES.truck, ...WORK_ORDER_PAGES.express],
  async source(db, user, params, language) {
    const rows = await workOrderExportRows(db, user, params);
    const en = language === 'en-US';
    const express = params.line === 'express';
    const columns: ExportColumn<Row>[] = [
      { header: en ? 'Work order' : '工单号', value: (r) => r.workOrderNo, width: 22 },
      {
        header: express ? (en ? 'Waybill number' : '运单号') : en ? 'Order number' : '订单号',
        value: (r) => r.orderNo,
        width: 22,
      },
      { header: en ? 'Customer' : '客户', value: (r) => r.organisationName, width: 26 },
      {
        header: en ? 'Transaction item' : '交易项目',
        value: (r) => translate(language, `workOrder.item.${r.transactionItem}`),
      },
      {
        header: en ? 'Category' : '工单类别',
        value: (r) => translate(language, `workOrder.category.${r.category}`),
      },
      { header: en ? 'Transaction amount' : '交易金额', type: 'money', value: (r) => r.amount },
      { header: en ? 'Status' : '状态', value: (r) => translate(language, `workOrder.status.${r.status}`) },
      {
        header: en ? 'Consumption type' : '消费类型',
        value: (r) => translate(language, `workOrder.consumption.${r.consumptionType}`),
      },
      { header: en ? 'Add/deduct/refund amount' : '加扣退金额', type: 'money', value: (r) => r.resultAmount },
      { header: en ? 'Remark' : '处理说明', value: (r) => r.remark, width: 30 },
      { header: en ? 'Operator' : '操作人', value: (r) => r.operator, width: 26 },
      { header: en ? 'Processing time' : '处理时间', type: 'time', value: (r) => r.processedAt },
      { header: en ? 'Proof files' : '凭证文件', value: (r) => r.proofUrls.join('\n'), width: 30 },
      { header: en ? 'Created at' : '创建时间', type: 'time', value: (r) => r.createdAt },
    ];
    return { columns: columns as ExportColumn<unknown>[], count: rows.count, pages: rows.pages };
  },
});
