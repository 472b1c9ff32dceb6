import { staffListQuery } from '@freight/contracts/roles';
import { defineExport, type ExportColumn } from '../downloads/runner.ts';
import { type StaffMember, staffExportRows } from './service.ts';

/** `/admin/staff/export`: the tenant's staff of the list's filters, with their roles, in the caller's language. */
export const staffExport = defineExport({
  name: 'staff',
  fileName: { 'zh-CN': '员工.xlsx', 'en-US': 'staff.xlsx' },
  params: staffListQuery,
  permission: '/staff-management',
  async source(db, user, params, language) {
    const { page: _p, limit: _l, ...query } = params;
    const rows = await staffExportRows(db, user.tenantId, query);
    const en = language === 'en-US';
    const columns: ExportColumn<StaffMember>[] = [
      { header: en ? 'E-mail' : '邮箱', value: (r) => r.email, width: 30 },
      { header: en ? 'Name' : '姓名', value: (r) => r.name },
      { header: en ? 'Phone' : '电话', value: (r) => r.phone },
      {
        header: en ? 'Roles' : '角色',
        value: (r) => r.roles.map((x) => (en ? x.nameEn : x.name)).join(', '),
      },
      {
        header: en ? 'Status' : '状态',
        value: (r) => (r.enabled ? (en ? 'Enabled' : '启用') : en ? 'Disabled' : '禁用'),
      },
      { header: en ? 'Last sign-in' : '最近登录', type: 'time', value: (r) => r.lastLoginAt },
      { header: en ? 'Created' : '创建时间', type: 'time', value: (r) => r.createdAt },
    ];
    return { columns: columns as ExportColumn<unknown>[], count: rows.count, pages: rows.pages };
  },
});
