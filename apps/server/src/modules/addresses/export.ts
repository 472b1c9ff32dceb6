import {
  ADDRESS_COLUMNS,
  ADDRESS_TYPE_LABELS,
  type AddressBookEntry,
  addressListQuery,
} from '@freight/contracts/addresses';
import { organisationScope } from '../customers/service.ts';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import { addressExportRows } from './service.ts';

/** `/admin/address/export`: the book of the list's filters, in the caller's language. */
export const addressExport = defineExport({
  name: 'addresses',
  fileName: { 'zh-CN': '地址簿.xlsx', 'en-US': 'addresses.xlsx' },
  params: addressListQuery,
  permission: '/addressmanagement',
  async source(db, user, params, language) {
    const { page: _p, limit: _l, ...filter } = params;
    const rows = addressExportRows(db, await organisationScope(db, user), filter);
    const en = language === 'en-US';
    const columns: ExportColumn<AddressBookEntry>[] = [
      ...ADDRESS_COLUMNS.map((c) => ({
        header: c.label[language],
        width: c.field === 'address1' || c.field === 'name' ? 30 : 16,
        value: (r: AddressBookEntry) =>
          c.field === 'addressType' ? ADDRESS_TYPE_LABELS[r.addressType][language] : r[c.field],
      })),
      { header: en ? 'Organisation' : '所属机构', width: 26, value: (r) => r.organisationName },
      {
        header: en ? 'Default pickup' : '默认提货地址',
        value: (r) => (r.isDefaultPickup ? (en ? 'Yes' : '是') : ''),
      },
    ];
    return { columns: columns as ExportColumn<unknown>[], count: rows.count, pages: rows.pages };
  },
});
