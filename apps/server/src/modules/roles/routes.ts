import { translate } from '@freight/contracts/messages';
import { emptyResponse, okResponse } from '@freight/contracts/responses';
import {
  type GrantTreeNodeData,
  grantTreeView,
  idBody,
  roleGrantsView,
  roleListQuery,
  roleListView,
  roleSaveBody,
  savedIdView,
  userMenuView,
  userRoleView,
} from '@freight/contracts/roles';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badField, conflict, isUniqueViolation, notFound } from '../../lib/errors.ts';
import { sendBuiltOnce } from '../../lib/response-serializer.ts';
import { currentUser } from '../../plugins/context.ts';
import { isPlatformTenant } from '../site/service.ts';
import { roles } from './schema.ts';
import {
  findRole,
  forgetCachedGrants,
  fullMenuTree,
  grantsForUser,
  listRoles,
  menuTreeFor,
  roleGrantsOf,
  setRoleGrants,
  unknownGrantField,
  usersHoldingRole,
} from './service.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  const myMenu = async (request: FastifyRequest) => {
    const me = currentUser(request);
    return menuTreeFor(await grantsForUser(app.db, me.tenantId, me.id, isPlatformTenant(request.tenant)));
  };
  app.post(
    '/menu/navigate',
    { schema: { tags: ['rbac'], response: { 200: okResponse(userMenuView) } } },
    // Every page load asks for it: its compressed answer is kept with the tree (one per grant set).
    async (request, reply) =>
      sendBuiltOnce(request, reply, userMenuView, await myMenu(request), translate(request.language, 'ok')),
  );
  app.post(
    '/admin/role/getUserRole',
    { schema: { tags: ['rbac'], response: { 200: okResponse(userRoleView) } } },
    async (request) => ({
      roles: currentUser(request).roles,
      menus: await myMenu(request),
    }),
  );

  const view = { permission: '/basicSettings' } as const;
  app.post(
    '/admin/role/menuTree',
    { config: view, schema: { tags: ['rbac'], response: { 200: okResponse(grantTreeView) } } },
    async (request) => {
      const toNode = (item: ReturnType<typeof fullMenuTree>[number]): GrantTreeNodeData => ({
        id: item.id,
        name: item.name,
        name_en: item.name_en,
        icon: item.icon,
        paths: item.path,
        is_show: item.is_show,
        haveChildMenu: item.children ? 1 : 0,
        component: item.component,
        subList: item.children
          ? item.children.map(toNode)
          : (item.buttons ?? []).map((b) => ({ name: b.name, name_en: b.name_en, component: b.key })),
      });
      return fullMenuTree(isPlatformTenant(request.tenant)).map(toNode);
    },
  );

  app.post(
    '/admin/role/list',
    {
      config: view,
      schema: { tags: ['rbac'], body: roleListQuery, response: { 200: okResponse(roleListView) } },
    },
    async (request) => listRoles(app.db, request.tenant.id, request.body),
  );

  app.post(
    '/admin/role/info',
    { config: view, schema: { tags: ['rbac'], body: idBody, response: { 200: okResponse(roleGrantsView) } } },
    async (request) => {
      const role = await findRole(app.db, request.tenant.id, request.body.id);
      if (!role) throw notFound();
      return { role, ...(await roleGrantsOf(app.db, request.tenant.id, role.id)) };
    },
  );

  app.post(
    '/admin/role/save',
    {
      config: { permission: 'role:save', audit: 'role.save' },
      schema: { tags: ['rbac'], body: roleSaveBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const tenantId = request.tenant.id;
      const { id, menuIds, buttonKeys, ...fields } = request.body;
      const [clash] = await app.db
        .select({ id: roles.id })
        .from(roles)
        .where(
          and(eq(roles.tenantId, tenantId), eq(roles.name, fields.name), id ? ne(roles.id, id) : undefined),
        )
        .limit(1);
      if (clash) throw badField('name', 'rbac.roleNameTaken');
      const unknown = unknownGrantField(menuIds, buttonKeys);
      if (unknown) throw badField(unknown, 'rbac.unknownMenu');
      const saved = await app.db
        .transaction(async (tx) => {
          let roleId = id;
          if (roleId) {
            const [row] = await tx
              .update(roles)
              .set(fields)
              .where(and(eq(roles.tenantId, tenantId), eq(roles.id, roleId)))
              .returning({ id: roles.id });
            if (!row) throw notFound();
          } else {
            const [row] = await tx
              .insert(roles)
              .values({ tenantId, ...fields })
              .returning({ id: roles.id });
            roleId = row?.id as number;
          }
          if (!(await setRoleGrants(tx, tenantId, roleId, menuIds, buttonKeys)))
            throw badField('menuIds', 'rbac.unknownMenu');
          return roleId;
        })
        .catch((error: unknown) => {
          // Two saves of the same new name at once: the unique index decides, and the loser hears why.
          if (isUniqueViolation(error)) throw badField('name', 'rbac.roleNameTaken');
          throw error;
        });
      // Dropped again now the grants are committed (see setRoleGrants).
      forgetCachedGrants();
      request.auditTarget = `role:${saved}`;
      return { id: saved };
    },
  );

  app.post(
    '/admin/role/delete',
    {
      config: { permission: 'role:delete', audit: 'role.delete' },
      schema: { tags: ['rbac'], body: idBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      const tenantId = request.tenant.id;
      const role = await findRole(app.db, tenantId, request.body.id);
      if (!role) throw notFound();
      request.auditTarget = `role:${role.id}`;
      if (role.builtin) throw conflict('rbac.builtinRole');
      const holders = await usersHoldingRole(app.db, tenantId, role.id);
      if (holders > 0) throw conflict('rbac.roleInUse', { count: holders });
      await app.db.transaction(async (tx) => {
        await setRoleGrants(tx, tenantId, role.id, [], []);
        await tx.delete(roles).where(and(eq(roles.tenantId, tenantId), eq(roles.id, role.id)));
      });
      return null;
    },
  );
};

export default routes;
