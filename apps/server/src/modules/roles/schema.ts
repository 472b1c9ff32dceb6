import type { MenuButton } from '@freight/contracts/menu';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, updatedAt } from '../../db/columns.ts';

/** The product's menu, synced from `@freight/contracts/menu` at start; the same for every tenant. */
export const menuItems = pgTable('menu_items', {
  id: integer('id').primaryKey(),
  parentId: integer('parent_id'),
  name: text('name').notNull(),
  nameEn: text('name_en').notNull(),
  icon: text('icon').notNull(),
  path: text('path').notNull(),
  component: text('component').notNull(),
  isShow: integer('is_show').notNull(),
  sort: integer('sort').notNull(),
  permissions: jsonb('permissions').$type<string[]>().notNull(),
  keepAlive: boolean('keep_alive').notNull(),
  buttons: jsonb('buttons').$type<MenuButton[]>().notNull(),
});

export const roles = pgTable(
  'roles',
  {
    tenantId: tenantId(),
    id: id(),
    /** Stable key for built-in roles (`admin`, `editor`, `branch`, ...); null for roles made by staff. */
    code: text('code'),
    name: text('name').notNull(),
    nameEn: text('name_en').notNull(),
    description: text('description').notNull().default(''),
    /** The description in English; `description` is the Chinese one. */
    descriptionEn: text('description_en').notNull().default(''),
    builtin: boolean('builtin').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('roles_code').on(t.tenantId, t.code),
    uniqueIndex('roles_name').on(t.tenantId, t.name),
  ],
);

/** A grant is a menu item, or a button key within one. */
export const roleGrants = pgTable(
  'role_grants',
  {
    tenantId: tenantId(),
    roleId: bigint('role_id', { mode: 'number' }).notNull(),
    menuId: integer('menu_id').notNull(),
    /** Empty for the menu item itself. */
    buttonKey: text('button_key').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.roleId, t.menuId, t.buttonKey] })],
);

export const userRoles = pgTable(
  'user_roles',
  {
    tenantId: tenantId(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    roleId: bigint('role_id', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId, t.roleId] }),
    index('user_roles_role').on(t.tenantId, t.roleId),
  ],
);
