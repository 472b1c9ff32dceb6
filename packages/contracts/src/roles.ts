import { z } from 'zod';
import { pageQuery } from './api.ts';
import { phoneField } from './phone.ts';
import { pageOf, timestamp } from './responses.ts';
import { emailField, idField, instantField, MAX_INT4, passwordField, str } from './validation.ts';

export const roleListQuery = pageQuery.extend({ keyword: str().trim().max(100).optional() });

export const roleSaveBody = z.object({
  id: z.number().int().positive().optional(),
  name: str().trim().min(1).max(50),
  nameEn: str().trim().min(1).max(50),
  description: str().trim().max(200).default(''),
  descriptionEn: str().trim().max(200).default(''),
  menuIds: z.array(idField(MAX_INT4)).max(500),
  buttonKeys: z.array(str().min(1).max(100)).max(500),
});
export type RoleSaveBody = z.infer<typeof roleSaveBody>;

export const idBody = z.object({ id: idField() });

export const staffListQuery = pageQuery.extend({
  keyword: str().trim().max(100).optional(),
  enabled: z.boolean().optional(),
  roleId: z.number().int().positive().optional(),
});

export const staffSaveBody = z.object({
  id: z.number().int().positive().optional(),
  email: emailField,
  name: str().trim().min(1).max(50),
  phone: z.union([phoneField, z.literal('')]).default(''),
  password: passwordField.optional(),
  roleIds: z.array(z.number().int().positive()).min(1).max(50),
});

export const staffStatusBody = z.object({ id: z.number().int().positive(), enabled: z.boolean() });

export const operationLogQuery = pageQuery.extend({
  keyword: str().trim().max(100).optional(),
  action: str().trim().max(100).optional(),
  from: instantField().optional(),
  to: instantField().optional(),
  result: z.enum(['success', 'failure']).optional(),
});

/* ----- responses ----- */

/** A page's button as the menu lists it; `component` is its permission key (`role:save`). */
export const menuButtonView = z.object({ name: z.string(), name_en: z.string(), component: z.string() });

const flag = z.union([z.literal(0), z.literal(1)]);
const menuItemFields = {
  id: z.number().int(),
  name: z.string(),
  name_en: z.string(),
  icon: z.string(),
  paths: z.string(),
  is_show: flag,
  haveChildMenu: flag,
  component: z.string(),
};
type MenuButtonData = z.infer<typeof menuButtonView>;
interface MenuItemData {
  id: number;
  name: string;
  name_en: string;
  icon: string;
  paths: string;
  is_show: 0 | 1;
  haveChildMenu: 0 | 1;
  component: string;
}
export interface MenuNodeData extends MenuItemData {
  meta: { title: string; title_en: string; icon: string; keepAlive: boolean; permissions: string[] };
  /** A group's pages, or a page's buttons. */
  subList: (MenuNodeData | MenuButtonData)[];
}
export interface GrantTreeNodeData extends MenuItemData {
  subList: (GrantTreeNodeData | MenuButtonData)[];
}

/** The signed-in user's menu (`/menu/navigate`): groups hold pages, pages hold their granted buttons. */
export const menuNodeView: z.ZodType<MenuNodeData, MenuNodeData> = z.object({
  ...menuItemFields,
  meta: z.object({
    title: z.string(),
    title_en: z.string(),
    icon: z.string(),
    keepAlive: z.boolean(),
    permissions: z.array(z.string()),
  }),
  subList: z.array(z.union([z.lazy(() => menuNodeView), menuButtonView])),
});
export const userMenuView = z.array(menuNodeView);
export const userRoleView = z.object({ roles: z.array(z.string()), menus: userMenuView });

/** The whole menu with every button, what a role can be granted (`/admin/role/menuTree`). */
export const grantTreeNodeView: z.ZodType<GrantTreeNodeData, GrantTreeNodeData> = z.object({
  ...menuItemFields,
  subList: z.array(z.union([z.lazy(() => grantTreeNodeView), menuButtonView])),
});
export const grantTreeView = z.array(grantTreeNodeView);

export const roleRowView = z.object({
  id: z.number().int(),
  code: z.string().nullable(),
  name: z.string(),
  nameEn: z.string(),
  description: z.string(),
  descriptionEn: z.string(),
  builtin: z.boolean(),
  userCount: z.number().int(),
  createdAt: timestamp,
});
export const roleListView = pageOf(roleRowView);

export const roleGrantsView = z.object({
  role: z.object({
    tenantId: z.number().int(),
    id: z.number().int(),
    code: z.string().nullable(),
    name: z.string(),
    nameEn: z.string(),
    description: z.string(),
    descriptionEn: z.string(),
    builtin: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
  menuIds: z.array(z.number().int()),
  buttonKeys: z.array(z.string()),
});

/** A save answers the id of the saved record. */
export const savedIdView = z.object({ id: z.number().int() });

export const staffRowView = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  phone: z.string(),
  enabled: z.boolean(),
  lastLoginAt: timestamp.nullable(),
  createdAt: timestamp,
  roles: z.array(z.object({ id: z.number().int(), name: z.string(), nameEn: z.string() })),
});
export const staffListView = pageOf(staffRowView);

export const operationLogRowView = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  userEmail: z.string(),
  action: z.string(),
  /** The action in the reader's language (`oplog.ts`). */
  actionLabel: z.string(),
  method: z.string(),
  path: z.string(),
  target: z.string(),
  resultCode: z.number().int(),
  ip: z.string(),
  requestId: z.string(),
  createdAt: timestamp,
});
export const operationLogListView = pageOf(operationLogRowView);
