import type { Wire } from '@freight/contracts/responses';
import type { tenantCreatedView, tenantRowView } from '@freight/contracts/tenants';
import { post } from '../../lib/http.ts';

export type TenantRow = Wire<typeof tenantRowView>;

export interface TenantFilters {
  keyword?: string;
  enabled?: boolean;
}

export interface TenantCreateInput {
  code: string;
  name: string;
  nameEn: string;
  hosts: string[];
  adminEmail: string;
}

export const TENANT_LIST_URL = '/admin/tenants/list';

export const tenantApi = {
  create: (input: TenantCreateInput) => post<Wire<typeof tenantCreatedView>>('/admin/tenants/create', input),
  save: (input: { id: number; name: string; hosts: string[] }) => post('/admin/tenants/save', input),
  setStatus: (id: number, enabled: boolean) => post('/admin/tenants/setStatus', { id, enabled }),
};
