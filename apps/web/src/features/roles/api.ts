import type { Wire } from '@freight/contracts/responses';
import type { grantTreeView, roleGrantsView, roleRowView } from '@freight/contracts/roles';
import { post } from '../../lib/http.ts';

export type RoleRow = Wire<typeof roleRowView>;
export type RoleGrants = Wire<typeof roleGrantsView>;

export interface RoleInput {
  id?: number;
  name: string;
  nameEn: string;
  description: string;
  descriptionEn: string;
  menuIds: number[];
  buttonKeys: string[];
}

export const ROLE_LIST_URL = '/admin/role/list';

export const rolesApi = {
  /** The whole menu with every button, unfiltered: what a role can be granted. */
  menuTree: () => post<Wire<typeof grantTreeView>>('/admin/role/menuTree'),
  info: (id: number) => post<RoleGrants>('/admin/role/info', { id }),
  save: (role: RoleInput) => post('/admin/role/save', role),
  remove: (id: number) => post('/admin/role/delete', { id }),
};
