import { waybillExportQuery } from '@freight/contracts/express-waybills';
import { translate } from '@freight/contracts/messages';
import { parseMoney } from '@freight/contracts/money';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import { waybillExportRows } from './service.ts';

type Row =
  Awaited<ReturnType<typeof waybillExportRows>> extends {
    pages(size: number): AsyncGenerator<(infer R)[]>;
  }
    ? R
    : never;

const sumMoneyStrings = (values: readonly string[]) => values.reduce((sum, v) => sum + parseMoney(v), 0n);

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
      { header: t('waybillField.freight'), type: 'money', value: (w) => w.freight },
      { header: t('waybillField.fuel'), type: 'money', value: (w) => w.fuel },
      {
        header: t('waybillField.surcharges'),
        type: 'money',
        value: (w) => sumMoneyStrings(w.surcharges.map((s) => s.fee)),
      },
      { header: t('waybillField.total'), type: 'money', value: (w) => w.total },
      // The cost is staff's only: for anyone else the column is not there at all.
      ...(staff
        ? [
            {
              header: t('waybillField.cost'),
              type: 'money' as const,
              value: (w: Row) => w.levels[0]?.total ?? '0.00',
            },
          ]
        : []),
      { header: t('waybillField.paid'), type: 'money', value: (w) => w.paid },
      { header: t('waybillField.createdAt'), type: 'time', value: (w) => w.createdAt },
    ];
    return { columns: columns as ExportColumn<unknown>[], count: rows.count, pages: rows.pages };
  },
});
