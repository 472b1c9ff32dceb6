import type { Wire } from '@freight/contracts/responses';
import type { roleListView, roleRowView, staffRowView } from '@freight/contracts/roles';
import { download, post } from '../../lib/http.ts';

export type StaffRow = Wire<typeof staffRowView>;

export interface StaffFilters {
  keyword?: string;
  enabled?: boolean;
  roleId?: number;
}

export interface StaffInput {
  id?: number;
  email: string;
  name: string;
  phone: string;
  /** Only when creating: an existing member changes their own password. */
  password?: string;
  roleIds: number[];
}

export const STAFF_LIST_URL = '/admin/staff/list';

export type RoleChoice = Wire<typeof roleRowView>;

export const staffApi = {
  /** Every role, to pick from (the largest page size the API allows). */
  roles: () => post<Wire<typeof roleListView>>('/admin/role/list', { page: 1, limit: 200 }),
  save: (input: StaffInput) => post('/admin/staff/save', input),
  setStatus: (id: number, enabled: boolean) => post('/admin/staff/setStatus', { id, enabled }),
  /** The spreadsheet of the current filters. */
  export: (filters: StaffFilters) => download('/admin/staff/export', filters, 'staff.xlsx'),
};
