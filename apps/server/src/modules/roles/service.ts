import {
  ALWAYS_GRANTED_MENU_IDS,
  flattenMenu,
  MENU,
  type MenuDefinition,
  PLATFORM_MENU_IDS,
} from '@freight/contracts/menu';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { announceCacheChange } from '../../db/cache-events.ts';
import type { DbOrTx } from '../../db/client.ts';
import { answerOnce } from '../../lib/response-serializer.ts';
import { handleKey, ShortCache } from '../../lib/short-cache.ts';
import { BUILTIN_ROLES } from './builtin-roles.ts';
import { menuItems, roleGrants, roles, userRoles } from './schema.ts';

/** Writes the product's menu into `menu_items`, so grants and the menu answer join on it. */
export async function syncMenu(db: DbOrTx): Promise<void> {
  const rows = flattenMenu().map((item, index) => ({
    id: item.id,
    parentId: item.parentId,
    name: item.name,
    nameEn: item.name_en,
    icon: item.icon,
    path: item.path,
    component: item.component,
    isShow: item.is_show,
    sort: index,
    permissions: [...(item.permissions ?? [])],
    keepAlive: item.keepAlive !== false,
    buttons: [...(item.buttons ?? [])],
  }));
  await db
    .insert(menuItems)
    .values(rows)
    .onConflictDoUpdate({
      target: menuItems.id,
      set: {
        parentId: sql`excluded.parent_id`,
        name: sql`excluded.name`,
        nameEn: sql`excluded.name_en`,
        icon: sql`excluded.icon`,
        path: sql`excluded.path`,
        component: sql`excluded.component`,
        isShow: sql`excluded.is_show`,
        sort: sql`excluded.sort`,
        permissions: sql`excluded.permissions`,
        keepAlive: sql`excluded.keep_alive`,
        buttons: sql`excluded.buttons`,
      },
    });
  const ids = rows.map((r) => r.id);
  await db.delete(menuItems).where(
    sql`${menuItems.id} not in (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
}

export interface UserGrants {
  roleCodes: string[];
  menuIds: Set<number>;
  buttonKeys: Set<string>;
  /** Menu paths and button keys: what route guards check. */
  keys: Set<string>;
}

const pathById = new Map(flattenMenu().map((m) => [m.id, m.path]));
const parentById = new Map(flattenMenu().map((m) => [m.id, m.parentId]));

/**
 * Grants are read on every request, so they are kept for a few seconds per user. A role change clears
 * the cache in this process at once, and in every process when it commits (db/cache-events.ts); a
 * read under way when it is cleared is not kept (lib/short-cache.ts).
 */
const GRANTS_TTL_MS = 5_000;
const grantsCache = new ShortCache<string, UserGrants>(GRANTS_TTL_MS);

export function forgetCachedGrants(): void {
  grantsCache.clear();
}

/**
 * What a user may open and press. `platform` says the tenant is the platform's own (the default one):
 * elsewhere a grant of a platform page (PLATFORM_MENU_IDS, managing tenants) counts for nothing.
 */
export async function grantsForUser(
  db: DbOrTx,
  tenantId: number,
  userId: number,
  platform: boolean,
): Promise<UserGrants> {
  const key = `${handleKey(db)}:${tenantId}:${userId}:${platform ? 'p' : ''}`;
  return grantsCache.through(key, () => readGrants(db, tenantId, userId, platform));
}

const platformPages = new Set(PLATFORM_MENU_IDS);
const platformButtons = new Set(
  flattenMenu()
    .filter((m) => platformPages.has(m.id))
    .flatMap((m) => (m.buttons ?? []).map((b) => b.key)),
);

async function readGrants(
  db: DbOrTx,
  tenantId: number,
  userId: number,
  platform: boolean,
): Promise<UserGrants> {
  const rows = await db
    .select({ code: roles.code, menuId: roleGrants.menuId, buttonKey: roleGrants.buttonKey })
    .from(userRoles)
    .innerJoin(roles, and(eq(roles.tenantId, userRoles.tenantId), eq(roles.id, userRoles.roleId)))
    .leftJoin(roleGrants, and(eq(roleGrants.tenantId, roles.tenantId), eq(roleGrants.roleId, roles.id)))
    .where(and(eq(userRoles.tenantId, tenantId), eq(userRoles.userId, userId)));
  const roleCodes = new Set<string>();
  const menuIds = new Set<number>(ALWAYS_GRANTED_MENU_IDS);
  const buttonKeys = new Set<string>();
  for (const row of rows) {
    if (row.code) roleCodes.add(row.code);
    if (row.menuId == null) continue;
    if (!platform && platformPages.has(row.menuId)) continue;
    if (row.buttonKey && (platform || !platformButtons.has(row.buttonKey))) buttonKeys.add(row.buttonKey);
    // A granted page brings its groups along, so the tree can show it.
    for (let id: number | null | undefined = row.menuId; id != null; id = parentById.get(id)) menuIds.add(id);
  }
  const keys = new Set<string>(buttonKeys);
  for (const id of menuIds) {
    const path = pathById.get(id);
    if (path) keys.add(path);
  }
  return { roleCodes: [...roleCodes], menuIds, buttonKeys, keys };
}

/** One node of the menu answer (SPEC section 3 "Menu item"); buttons sit in a page's `subList`. */
export interface MenuNode {
  id: number;
  name: string;
  name_en: string;
  icon: string;
  paths: string;
  is_show: 0 | 1;
  haveChildMenu: 0 | 1;
  component: string;
  meta: { title: string; title_en: string; icon: string; keepAlive: boolean; permissions: string[] };
  subList: MenuNode[] | { name: string; name_en: string; component: string }[];
}

/** The menu tree as this user may see it. */
const menuRows = flattenMenu().map((item) => ({
  id: item.id,
  parentId: item.parentId,
  name: item.name,
  nameEn: item.name_en,
  icon: item.icon,
  path: item.path,
  component: item.component,
  isShow: item.is_show,
  permissions: [...(item.permissions ?? [])],
  keepAlive: item.keepAlive !== false,
  buttons: [...(item.buttons ?? [])],
}));

/**
 * The menu trees built, one per grant set: a grant set lives as long as its cache entry (a role change
 * replaces it), so its tree goes with it. Users holding the same roles share one tree, and its answer
 * is encoded once (`answerOnce`).
 */
const menuTrees = new WeakMap<UserGrants, MenuNode[]>();
const sharedTrees = new Map<string, MenuNode[]>();

/** The menu tree as this user may see it; the menu is part of the release, so it is read from code. */
export function menuTreeFor(grants: UserGrants): MenuNode[] {
  let tree = menuTrees.get(grants);
  if (tree) return tree;
  const signature = `${[...grants.menuIds].sort((a, b) => a - b).join(',')}|${[...grants.buttonKeys].sort().join(',')}`;
  tree = sharedTrees.get(signature);
  if (!tree) {
    // Grant sets are few (one per combination of roles); the bound only keeps a bug from growing it.
    if (sharedTrees.size > 1_000) sharedTrees.clear();
    tree = answerOnce(buildMenuTree(grants));
    sharedTrees.set(signature, tree);
  }
  menuTrees.set(grants, tree);
  return tree;
}

function buildMenuTree(grants: UserGrants): MenuNode[] {
  const visible = menuRows.filter((i) => grants.menuIds.has(i.id));
  const build = (parentId: number | null): MenuNode[] =>
    visible
      .filter((i) => i.parentId === parentId)
      .map((i) => {
        const children = build(i.id);
        const isGroup = i.component === 'Layout';
        return {
          id: i.id,
          name: i.name,
          name_en: i.nameEn,
          icon: i.icon,
          paths: i.path,
          is_show: (i.isShow === 1 ? 1 : 0) as 0 | 1,
          haveChildMenu: (isGroup ? 1 : 0) as 0 | 1,
          component: i.component,
          meta: {
            title: i.name,
            title_en: i.nameEn,
            icon: i.icon,
            keepAlive: i.keepAlive,
            permissions: i.permissions,
          },
          subList: isGroup
            ? children
            : i.buttons
                .filter((btn) => grants.buttonKeys.has(btn.key))
                .map((btn) => ({ name: btn.name, name_en: btn.name_en, component: btn.key })),
        };
      })
      // A group whose pages are all withheld is not shown.
      .filter((node) => node.haveChildMenu === 0 || node.subList.length > 0);
  return build(null);
}

/** The full tree with every button, for the role editor's grant picker; platform pages only on the platform. */
export function fullMenuTree(platform: boolean): readonly MenuDefinition[] {
  if (platform) return MENU;
  const prune = (items: readonly MenuDefinition[]): MenuDefinition[] =>
    items
      .filter((item) => !platformPages.has(item.id))
      .map((item) => (item.children ? { ...item, children: prune(item.children) } : item));
  return prune(MENU);
}

export async function roleIdsByCode(
  db: DbOrTx,
  tenantId: number,
  codes: string[],
): Promise<Map<string, number>> {
  if (codes.length === 0) return new Map();
  const rows = await db
    .select({ id: roles.id, code: roles.code })
    .from(roles)
    .where(and(eq(roles.tenantId, tenantId), inArray(roles.code, codes)));
  return new Map(rows.filter((r) => r.code).map((r) => [r.code as string, r.id]));
}

/**
 * Replaces a user's roles. The cached grants are dropped here; a caller inside a transaction drops them
 * again after the commit, so a request read in between cannot keep the old grants.
 */
export async function assignRoles(
  db: DbOrTx,
  tenantId: number,
  userId: number,
  roleIds: number[],
): Promise<void> {
  await db.delete(userRoles).where(and(eq(userRoles.tenantId, tenantId), eq(userRoles.userId, userId)));
  if (roleIds.length > 0)
    await db.insert(userRoles).values(roleIds.map((roleId) => ({ tenantId, userId, roleId })));
  forgetCachedGrants();
  await announceCacheChange(db, 'grants');
}

/* ---------- role management ---------- */

const knownMenuIds = new Set(flattenMenu().map((m) => m.id));
const knownButtonKeys = new Set(flattenMenu().flatMap((m) => (m.buttons ?? []).map((btn) => btn.key)));

export async function listRoles(
  db: DbOrTx,
  tenantId: number,
  q: { page: number; limit: number; keyword?: string },
) {
  const condition = and(
    eq(roles.tenantId, tenantId),
    q.keyword
      ? sql`(${roles.name} ilike ${`%${q.keyword}%`} or ${roles.nameEn} ilike ${`%${q.keyword}%`})`
      : undefined,
  );
  const userCount = sql<number>`(select count(*)::int from ${userRoles} where ${userRoles.tenantId} = ${roles.tenantId} and ${userRoles.roleId} = ${roles.id})`;
  const [list, [total]] = await Promise.all([
    db
      .select({
        id: roles.id,
        code: roles.code,
        name: roles.name,
        nameEn: roles.nameEn,
        description: roles.description,
        descriptionEn: roles.descriptionEn,
        builtin: roles.builtin,
        userCount,
        createdAt: roles.createdAt,
      })
      .from(roles)
      .where(condition)
      .orderBy(asc(roles.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit),
    db.select({ n: sql<number>`count(*)::int` }).from(roles).where(condition),
  ]);
  return { list, total: total?.n ?? 0, page: q.page, limit: q.limit };
}

export async function findRole(db: DbOrTx, tenantId: number, id: number) {
  const [role] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.tenantId, tenantId), eq(roles.id, id)))
    .limit(1);
  return role ?? null;
}

export async function roleGrantsOf(db: DbOrTx, tenantId: number, roleId: number) {
  const rows = await db
    .select()
    .from(roleGrants)
    .where(and(eq(roleGrants.tenantId, tenantId), eq(roleGrants.roleId, roleId)));
  return {
    menuIds: [...new Set(rows.filter((r) => !r.buttonKey).map((r) => r.menuId))],
    buttonKeys: [...new Set(rows.filter((r) => r.buttonKey).map((r) => r.buttonKey))],
  };
}

/** The request field holding a menu id or button key the product does not have, if any. */
export function unknownGrantField(
  menuIds: readonly number[],
  buttonKeys: readonly string[],
): 'menuIds' | 'buttonKeys' | null {
  if (menuIds.some((id) => !knownMenuIds.has(id))) return 'menuIds';
  if (buttonKeys.some((k) => !knownButtonKeys.has(k))) return 'buttonKeys';
  return null;
}

const menuOfButton = new Map(
  flattenMenu().flatMap((m) => (m.buttons ?? []).map((btn) => [btn.key, m.id] as const)),
);

/** Replaces a role's grants; a button brings its page along. */
export async function setRoleGrants(
  db: DbOrTx,
  tenantId: number,
  roleId: number,
  menuIds: readonly number[],
  buttonKeys: readonly string[],
) {
  if (menuIds.some((id) => !knownMenuIds.has(id)) || buttonKeys.some((k) => !knownButtonKeys.has(k)))
    return false;
  const pages = new Set(menuIds);
  for (const key of buttonKeys) pages.add(menuOfButton.get(key) as number);
  await db.delete(roleGrants).where(and(eq(roleGrants.tenantId, tenantId), eq(roleGrants.roleId, roleId)));
  forgetCachedGrants();
  await announceCacheChange(db, 'grants');
  const rows = [
    ...[...pages].map((menuId) => ({ tenantId, roleId, menuId, buttonKey: '' })),
    ...buttonKeys.map((key) => ({
      tenantId,
      roleId,
      menuId: menuOfButton.get(key) as number,
      buttonKey: key,
    })),
  ];
  if (rows.length > 0) await db.insert(roleGrants).values(rows).onConflictDoNothing();
  return true;
}

export async function usersHoldingRole(db: DbOrTx, tenantId: number, roleId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(userRoles)
    .where(and(eq(userRoles.tenantId, tenantId), eq(userRoles.roleId, roleId)));
  return row?.n ?? 0;
}

/** The users who hold a role, within this tenant. */
export async function userIdsHoldingRole(db: DbOrTx, tenantId: number, roleId: number): Promise<number[]> {
  const rows = await db
    .select({ userId: userRoles.userId })
    .from(userRoles)
    .where(and(eq(userRoles.tenantId, tenantId), eq(userRoles.roleId, roleId)));
  return rows.map((r) => r.userId);
}

export async function rolesOfUsers(db: DbOrTx, tenantId: number, userIds: number[]) {
  if (userIds.length === 0) return new Map<number, { id: number; name: string; nameEn: string }[]>();
  const rows = await db
    .select({ userId: userRoles.userId, id: roles.id, name: roles.name, nameEn: roles.nameEn })
    .from(userRoles)
    .innerJoin(roles, and(eq(roles.tenantId, userRoles.tenantId), eq(roles.id, userRoles.roleId)))
    .where(and(eq(userRoles.tenantId, tenantId), inArray(userRoles.userId, userIds)));
  const byUser = new Map<number, { id: number; name: string; nameEn: string }[]>();
  for (const { userId, ...role } of rows) byUser.set(userId, [...(byUser.get(userId) ?? []), role]);
  return byUser;
}

export async function existingRoleIds(db: DbOrTx, tenantId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.tenantId, tenantId), inArray(roles.id, ids)));
  return rows.map((r) => r.id);
}

/**
 * The built-in roles of a tenant, created once; later calls leave staff's changes to them alone, but
 * the administrator always keeps every page, so new pages of a new release reach it.
 */
export async function ensureBuiltinRoles(db: DbOrTx, tenantId: number): Promise<Map<string, number>> {
  for (const role of BUILTIN_ROLES) {
    const [created] = await db
      .insert(roles)
      .values({
        tenantId,
        code: role.code,
        name: role.name,
        nameEn: role.nameEn,
        description: role.description,
        descriptionEn: role.descriptionEn,
        builtin: true,
      })
      .onConflictDoNothing()
      .returning({ id: roles.id });
    if (created) await setRoleGrants(db, tenantId, created.id, role.menuIds, role.buttonKeys);
  }
  const ids = await roleIdsByCode(
    db,
    tenantId,
    BUILTIN_ROLES.map((r) => r.code),
  );
  const admin = BUILTIN_ROLES.find((r) => r.code === 'admin');
  const adminId = ids.get('admin');
  if (admin && adminId) await setRoleGrants(db, tenantId, adminId, admin.menuIds, admin.buttonKeys);
  return ids;
}
