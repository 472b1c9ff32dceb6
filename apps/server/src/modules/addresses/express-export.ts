import {
  EXPRESS_ADDRESS_KIND_LABELS,
  type ExpressAddressEntry,
  expressAddressListQuery,
} from '@freight/contracts/addresses';
import { columnLabel } from '../../lib/batch-sheet.ts';
import { defineExport } from '../downloads/runner.ts';
import { bookExportSource } from './export.ts';
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
  source(db, user, params, language) {
    const en = language === 'en-US';
    const yes = en ? 'yes' : '是';
    const no = en ? 'no' : '否';
    return bookExportSource<typeof params, ExpressAddressEntry>(db, user, params, language, {
      rows: expressAddressExportRows,
      columns: EXPRESS_ADDRESS_COLUMNS.map((c) => ({
        header: columnLabel(c, language),
        width: c.width,
        value: (r) => {
          if (c.key === 'kind') return EXPRESS_ADDRESS_KIND_LABELS[r.kind][language];
          if (c.key === 'residential') return r.residential ? yes : no;
          return r[c.key as keyof ExpressAddressEntry] as string;
        },
      })),
      defaultMark: { header: en ? 'Default' : '默认', value: (r) => (r.isDefault ? yes : '') },
    });
  },
});
