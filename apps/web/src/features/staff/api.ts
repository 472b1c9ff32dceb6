import type { Page } from '@freight/contracts/api';
import { download, post } from '../../lib/http.ts';

export interface StaffRow {
  id: number;
  email: string;
  name: string;
  phone: string;
  enabled: boolean;
  roles: { id: number; name: string; nameEn: string }[];
  lastLoginAt: string | null;
  createdAt: string;
}

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

export interface RoleChoice {
  id: number;
  name: string;
  nameEn: string;
}

export const staffApi = {
  /** Every role, to pick from (the largest page size the API allows). */
  roles: () => post<Page<RoleChoice>>('/admin/role/list', { page: 1, limit: 200 }),
  save: (input: StaffInput) => post('/admin/staff/save', input),
  setStatus: (id: number, enabled: boolean) => post('/admin/staff/setStatus', { id, enabled }),
  /** The spreadsheet of the current filters. */
  export: (filters: StaffFilters) => download('/admin/staff/export', filters, 'staff.xlsx'),
};
