import { invoiceListQuery } from '@freight/contracts/invoices';
import { translate } from '@freight/contracts/messages';
import { organisationScope } from '../customers/service.ts';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import { invoiceExportRows, presentInvoices } from './service.ts';

type Row = Awaited<ReturnType<typeof presentInvoices>>[number];

/** `/admin/invoice/export`: the invoice requests of the list's filters, in the caller's language. */
export const invoiceExport = defineExport({
  name: 'invoices',
  fileName: { 'zh-CN': '发票.xlsx', 'en-US': 'invoices.xlsx' },
  params: invoiceListQuery,
  permission: '/invoices',
  async source(db, user, params, language) {
    const { page: _p, limit: _l, ...filter } = params;
    const rows = invoiceExportRows(db, await organisationScope(db, user), filter);
    const en = language === 'en-US';
    const columns: ExportColumn<Row>[] = [
      { header: en ? 'Request' : '申请编号', value: (r) => r.id },
      { header: en ? 'Organisation' : '客户', value: (r) => r.organisationName, width: 26 },
      { header: en ? 'Line' : '业务', value: (r) => r.line },
      { header: en ? 'Period from' : '开始时间', type: 'date', value: (r) => r.periodFrom },
      { header: en ? 'Period to' : '结束时间', type: 'date', value: (r) => r.periodTo },
      { header: en ? 'Amount' : '金额', type: 'money', value: (r) => r.amount },
      { header: en ? 'Title' : '发票抬头', value: (r) => r.title, width: 26 },
      { header: en ? 'Tax number' : '税号', value: (r) => r.taxNumber, width: 22 },
      { header: en ? 'Status' : '状态', value: (r) => translate(language, `invoices.status.${r.status}`) },
      { header: en ? 'Invoice number' : '发票号', value: (r) => r.invoiceNumber ?? '', width: 22 },
      { header: en ? 'Refusal reason' : '拒绝原因', value: (r) => r.refusalReason ?? '', width: 26 },
      { header: en ? 'Requested at' : '申请时间', type: 'time', value: (r) => r.createdAt },
    ];
    return {
      columns: columns as ExportColumn<unknown>[],
      count: rows.count,
      async *pages(size: number) {
        for await (const page of rows.pages(size)) yield await presentInvoices(db, user, page);
      },
    };
  },
});
