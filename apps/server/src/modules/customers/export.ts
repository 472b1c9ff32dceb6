import { customerListQuery } from '@freight/contracts/customers';
import { forbidden } from '../../lib/errors.ts';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import {
  mayListOrganisations,
  type OrganisationAccount,
  type OrganisationListRow,
  organisationAccounts,
  organisationExportRows,
  organisationScope,
} from './service.ts';

type Row = OrganisationListRow & { account: OrganisationAccount | undefined };

const money = (cents: bigint | undefined) => cents ?? 0n;

/** `/admin/customer/export`: one customer page's organisations of the list's filters, with their account. */
export const customerExport = defineExport({
  name: 'customers',
  fileName: { 'zh-CN': '客户.xlsx', 'en-US': 'organisations.xlsx' },
  params: customerListQuery,
  permission: 'customer:export',
  async source(db, user, params, language) {
    // The button is not enough: the list's own page, on this line, must be the caller's too.
    if (!mayListOrganisations(user, params)) throw forbidden();
    const { kind, line, keyword, enabled, parentId } = params;
    const rows = organisationExportRows(db, await organisationScope(db, user), {
      kind,
      keyword,
      enabled,
      parentId,
    });
    const en = language === 'en-US';
    const typeName = (t: string) =>
      en ? t : (({ branch: '分公司', agent: '代理', customer: '客户' } as Record<string, string>)[t] ?? t);
    const columns: ExportColumn<Row>[] = [
      { header: 'ID', value: (r) => r.id, width: 8 },
      { header: en ? 'Name' : '名称', value: (r) => r.name, width: 30 },
      { header: en ? 'Type' : '类型', value: (r) => typeName(r.type), width: 10 },
      { header: en ? 'Parent' : '上级', value: (r) => r.parentName ?? '', width: 26 },
      { header: en ? 'Contact' : '联系人', value: (r) => r.contactName },
      { header: en ? 'E-mail' : '邮箱', value: (r) => r.contactEmail, width: 28 },
      { header: en ? 'Phone' : '电话', value: (r) => r.contactPhone },
      { header: en ? 'Balance' : '余额', type: 'money', value: (r) => money(r.account?.balance) },
      {
        header: en ? 'Credit limit' : '授信额度',
        type: 'money',
        value: (r) => money(r.account?.creditLimit),
      },
      {
        header: en ? 'Available' : '可用余额',
        type: 'money',
        value: (r) => money(r.account?.available),
      },
      {
        header: en ? 'Status' : '状态',
        value: (r) => (r.enabled ? (en ? 'Enabled' : '启用') : en ? 'Disabled' : '禁用'),
      },
      { header: en ? 'Created' : '创建时间', type: 'time', value: (r) => r.createdAt },
    ];
    return {
      columns: columns as ExportColumn<unknown>[],
      count: rows.count,
      async *pages(size: number) {
        for await (const page of rows.pages(size)) {
          const accounts = await organisationAccounts().of(
            db,
            user,
            page.map((o) => o.id),
            line,
          );
          yield page.map((o) => ({ ...o, account: accounts.get(o.id) }));
        }
      },
    };
  },
});
