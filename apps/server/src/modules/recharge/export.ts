import { type MessageKey, translate } from '@freight/contracts/messages';
import { rechargeListQuery } from '@freight/contracts/recharge';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import {
  type presentRecharge,
  RECHARGE_LINE_LABEL,
  RECHARGE_LIST_PAGES,
  rechargeExportRows,
} from './service.ts';

type Row = ReturnType<typeof presentRecharge>;

/** `/admin/recharge/export`: the recharges of the list's filters, cards masked, in the caller's language. */
export const rechargeExport = defineExport({
  name: 'recharges',
  fileName: { 'zh-CN': '充值记录.xlsx', 'en-US': 'recharges.xlsx' },
  params: rechargeListQuery,
  // The route lets in any list page; the rows source keeps to the lines whose pages the caller holds.
  permission: Object.values(RECHARGE_LIST_PAGES).flat(),
  async source(db, user, params, language) {
    const { page: _p, limit: _l, ...filter } = params;
    const rows = await rechargeExportRows(db, user, filter);
    const en = language === 'en-US';
    const t = (key: MessageKey) => translate(language, key);
    const columns: ExportColumn<Row>[] = [
      { header: en ? 'Serial' : '流水号', value: (r) => r.serial, width: 22 },
      { header: en ? 'Organisation' : '客户', value: (r) => r.organisationName, width: 26 },
      { header: en ? 'Line' : '业务', value: (r) => t(RECHARGE_LINE_LABEL[r.line]) },
      { header: en ? 'Submitted amount' : '提交金额', type: 'money', value: (r) => r.amount },
      { header: en ? 'Currency' : '币种', value: (r) => r.currency },
      { header: en ? 'Credited amount' : '实际到账金额', type: 'money', value: (r) => r.creditedAmount },
      { header: en ? 'Fee' : '手续费', type: 'money', value: (r) => r.fee },
      { header: en ? 'Status' : '状态', value: (r) => t(`recharge.status.${r.status}`), width: 26 },
      { header: en ? 'Payment method' : '付款方式', value: (r) => t(`recharge.method.${r.method}`) },
      { header: en ? 'Payer' : '付款人', value: (r) => r.payerName },
      { header: en ? 'Payer card' : '付款卡号', value: (r) => r.payerCardNumber, width: 24 },
      { header: en ? 'Submitted at' : '提交时间', type: 'time', value: (r) => r.submittedAt },
      { header: en ? 'Reviewed at' : '审核时间', type: 'time', value: (r) => r.reviewedAt },
      { header: en ? 'Review note' : '审核备注', value: (r) => r.reviewNote, width: 30 },
    ];
    return { columns: columns as ExportColumn<unknown>[], count: rows.count, pages: rows.pages };
  },
});
