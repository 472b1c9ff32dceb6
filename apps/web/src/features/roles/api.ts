import type { MenuNode } from '../../app/session.tsx';
import { post } from '../../lib/http.ts';

export interface RoleRow {
  id: number;
  code: string | null;
  name: string;
  nameEn: string;
  description: string;
  builtin: boolean;
  userCount: number;
}

export interface RoleGrants {
  role: RoleRow;
  menuIds: number[];
  buttonKeys: string[];
}

export interface RoleInput {
  id?: number;
  name: string;
  nameEn: string;
  description: string;
  menuIds: number[];
  buttonKeys: string[];
}

export const ROLE_LIST_URL = '/admin/role/list';

export const rolesApi = {
  /** The whole menu with every button, unfiltered: what a role can be granted. */
  menuTree: () => post<MenuNode[]>('/admin/role/menuTree'),
  info: (id: number) => post<RoleGrants>('/admin/role/info', { id }),
  save: (role: RoleInput) => post('/admin/role/save', role),
  remove: (id: number) => post('/admin/role/delete', { id }),
};
