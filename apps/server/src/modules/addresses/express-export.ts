import {
  EXPRESS_ADDRESS_KIND_LABELS,
  type ExpressAddressEntry,
  expressAddressListQuery,
} from '@freight/contracts/addresses';
import { columnLabel } from '../../lib/batch-sheet.ts';
import { organisationScope } from '../customers/service.ts';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import { EXPRESS_ADDRESS_COLUMNS, expressAddressExportRows } from './express-service.ts';

/**
 * `/express/address/export`: the express book of the list's filters, in the caller's language, in the
 * import template's columns first, so an exported file imports again.
 */
export const expressAddressExport = defineExport({
  name: 'express-addresses',
  fileName: { 'zh-CN': '快递地址簿.xlsx', 'en-US': 'express-addresses.xlsx' },
  params: expressAddressListQuery,
  permission: '/addressList',
  async source(db, user, params, language) {
    const { page: _p, limit: _l, ...filter } = params;
    const rows = expressAddressExportRows(db, await organisationScope(db, user), filter);
    const en = language === 'en-US';
    const yes = en ? 'yes' : '是';
    const no = en ? 'no' : '否';
    const columns: ExportColumn<ExpressAddressEntry>[] = [
      ...EXPRESS_ADDRESS_COLUMNS.map((c) => ({
        header: columnLabel(c, language),
        width: c.width,
        value: (r: ExpressAddressEntry) => {
          if (c.key === 'kind') return EXPRESS_ADDRESS_KIND_LABELS[r.kind][language];
          if (c.key === 'residential') return r.residential ? yes : no;
          return r[c.key as keyof ExpressAddressEntry] as string;
        },
      })),
      { header: en ? 'Organisation' : '所属机构', width: 26, value: (r) => r.organisationName },
      { header: en ? 'Default' : '默认', value: (r) => (r.isDefault ? yes : '') },
    ];
    return { columns: columns as ExportColumn<unknown>[], count: rows.count, pages: rows.pages };
  },
});
