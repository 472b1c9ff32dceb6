import {
  ADDRESS_COLUMNS,
  ADDRESS_TYPE_LABELS,
  type AddressBookEntry,
  addressListQuery,
} from '@freight/contracts/addresses';
import type { Language } from '@freight/contracts/api';
import type { Db } from '../../db/client.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { type OrganisationScope, organisationScope } from '../customers/service.ts';
import { defineExport, type ExportColumn, type ExportSource } from '../downloads/runner.ts';
import { addressExportRows } from './service.ts';

/**
 * Either book's export (this one and express-export.ts): the caller's book of the list's filters, the
 * book's own columns, then whose entry each is and its default mark, in the caller's language.
 */
export async function bookExportSource<
  P extends { page: number; limit: number },
  E extends { organisationName: string },
>(
  db: Db,
  user: RequestUser,
  params: P,
  language: Language,
  book: {
    rows: (
      db: Db,
      scope: OrganisationScope,
      filter: Omit<P, 'page' | 'limit'>,
    ) => Omit<ExportSource<E>, 'columns'>;
    columns: ExportColumn<E>[];
    defaultMark: ExportColumn<E>;
  },
): Promise<ExportSource<unknown>> {
  const { page: _p, limit: _l, ...filter } = params;
  const rows = book.rows(db, await organisationScope(db, user), filter);
  const columns: ExportColumn<E>[] = [
    ...book.columns,
    {
      header: language === 'en-US' ? 'Organisation' : '所属机构',
      width: 26,
      value: (r) => r.organisationName,
    },
    book.defaultMark,
  ];
  return { columns: columns as ExportColumn<unknown>[], count: rows.count, pages: rows.pages };
}

/** `/admin/address/export`: the book of the list's filters, in the caller's language. */
export const addressExport = defineExport({
  name: 'addresses',
  fileName: { 'zh-CN': '地址簿.xlsx', 'en-US': 'addresses.xlsx' },
  params: addressListQuery,
  permission: '/addressmanagement',
  source(db, user, params, language) {
    const en = language === 'en-US';
    return bookExportSource<typeof params, AddressBookEntry>(db, user, params, language, {
      rows: addressExportRows,
      columns: ADDRESS_COLUMNS.map((c) => ({
        header: c.label[language],
        width: c.field === 'address1' || c.field === 'name' ? 30 : 16,
        value: (r) => (c.field === 'addressType' ? ADDRESS_TYPE_LABELS[r.addressType][language] : r[c.field]),
      })),
      defaultMark: {
        header: en ? 'Default pickup' : '默认提货地址',
        value: (r) => (r.isDefaultPickup ? (en ? 'Yes' : '是') : ''),
      },
    });
  },
});
