import { waybillExportQuery } from '@freight/contracts/express-waybills';
import { translate } from '@freight/contracts/messages';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import { waybillExportRows } from './service.ts';

type Row =
  Awaited<ReturnType<typeof waybillExportRows>> extends {
    pages(size: number): AsyncGenerator<(infer R)[]>;
  }
    ? R
    : never;

const sumMoneyStrings = (values: readonly string[]) =>
  formatMoney(values.reduce((sum, v) => sum + parseMoney(v), 0n));

/** `/express/order/export`: the list's filters as a spreadsheet; staff also get the operator's cost. */
export const waybillExport = defineExport({
  name: 'express-waybills',
  fileName: { 'zh-CN': '快递运单.xlsx', 'en-US': 'express-waybills.xlsx' },
  params: waybillExportQuery,
  permission: ['express-order:export', 'express-return:export'],
  async source(db, user, params, language) {
    const rows = await waybillExportRows(db, user, params);
    const t = (key: string) => translate(language, key as never);
    const en = language === 'en-US';
    const staff = user.identity === 'employee';
    const address = (a: Row['shipment']['recipient']) =>
      [a.name, a.city, a.state, a.zipcode, a.country].filter(Boolean).join(', ');
    const columns: ExportColumn<Row>[] = [
      { header: t('waybillField.waybillNo'), value: (w) => w.waybillNo, width: 22 },
      { header: t('waybillField.trackingNo'), value: (w) => w.trackingNo, width: 22 },
      { header: t('waybillField.reference'), value: (w) => w.reference },
      { header: t('waybillField.status'), value: (w) => t(`waybillField.statusName.${w.status}`) },
      { header: t('waybillField.customer'), value: (w) => w.organisationName, width: 24 },
      {
        header: t('waybillField.channel'),
        value: (w) =>
          en
            ? `${w.channel.productNameEn} · ${w.channel.nameEn}`
            : `${w.channel.productName} · ${w.channel.name}`,
        width: 32,
      },
      { header: t('waybillField.sender'), value: (w) => address(w.shipment.sender), width: 32 },
      { header: t('waybillField.recipient'), value: (w) => address(w.shipment.recipient), width: 32 },
      { header: t('waybillField.zone'), value: (w) => w.zone, width: 8 },
      { header: t('waybillField.billableWeight'), value: (w) => w.billableWeight, width: 10 },
      { header: t('waybillField.freight'), value: (w) => Number(w.freight) },
      { header: t('waybillField.fuel'), value: (w) => Number(w.fuel) },
      {
        header: t('waybillField.surcharges'),
        value: (w) => Number(sumMoneyStrings(w.surcharges.map((s) => s.fee))),
      },
      { header: t('waybillField.total'), value: (w) => Number(w.total) },
      ...(staff
        ? [{ header: t('waybillField.cost'), value: (w: Row) => Number(w.levels[0]?.total ?? 0) }]
        : []),
      { header: t('waybillField.paid'), value: (w) => Number(w.paid) },
      { header: t('waybillField.createdAt'), value: (w) => w.createdAt.toISOString(), width: 24 },
    ];
    return { columns: columns as ExportColumn<unknown>[], count: rows.count, pages: rows.pages };
  },
});
