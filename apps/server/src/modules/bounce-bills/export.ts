import { BILL_PAGES, bounceBillListQuery } from '@freight/contracts/bounce-bills';
import { translate } from '@freight/contracts/messages';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import { billExportRows, presentBills } from './service.ts';

type Row = Awaited<ReturnType<typeof presentBills>>[number];

/** `/admin/bounceBill/export`: a line's bills of the list's filters, in the caller's language. */
export const bounceBillExport = defineExport({
  name: 'bounce-bills',
  fileName: { 'zh-CN': '异常账单.xlsx', 'en-US': 'bounce-bills.xlsx' },
  // The express line's customers know these bills as abnormal billing.
  attachmentName: (params, language) =>
    params.line === 'express'
      ? { 'zh-CN': '异常计费.xlsx', 'en-US': 'abnormal-billing.xlsx' }[language]
      : { 'zh-CN': '异常账单.xlsx', 'en-US': 'bounce-bills.xlsx' }[language],
  params: bounceBillListQuery,
  // The route lets in any bill page; the rows source holds the caller to the line's pages.
  permission: [...BILL_PAGES.truck, ...BILL_PAGES.express],
  async source(db, user, params, language) {
    const { page: _p, limit: _l, ...filter } = params;
    const rows = await billExportRows(db, user, filter);
    const en = language === 'en-US';
    const express = filter.line === 'express';
    const columns: ExportColumn<Row>[] = [
      { header: en ? 'Bill number' : '账单号', value: (r) => r.billNo, width: 22 },
      {
        header: express ? (en ? 'Waybill number' : '运单号') : en ? 'Order number' : '订单号',
        value: (r) => r.orderNo,
        width: 22,
      },
      { header: en ? 'Customer' : '客户', value: (r) => r.organisationName, width: 26 },
      { header: en ? 'Type' : '类型', value: (r) => translate(language, `bounceBill.type.${r.type}`) },
      { header: en ? 'Amount' : '金额', type: 'money', value: (r) => r.amount },
      { header: en ? 'Declared' : '申报值', value: (r) => r.declared },
      { header: en ? 'Found' : '实际值', value: (r) => r.actual },
      { header: en ? 'Description' : '说明', value: (r) => r.description, width: 40 },
      { header: en ? 'Status' : '状态', value: (r) => translate(language, `bounceBill.status.${r.status}`) },
      { header: en ? 'Charged at' : '扣款时间', type: 'time', value: (r) => r.chargedAt },
      { header: en ? 'Work order' : '工单', value: (r) => r.workOrderNo ?? '', width: 22 },
      { header: en ? 'Cancel reason' : '取消原因', value: (r) => r.cancelReason, width: 26 },
      { header: en ? 'Created at' : '创建时间', type: 'time', value: (r) => r.createdAt },
    ];
    return {
      columns: columns as ExportColumn<unknown>[],
      count: rows.count,
      async *pages(size: number) {
        for await (const page of rows.pages(size)) yield await presentBills(db, user, page);
      },
    };
  },
});
