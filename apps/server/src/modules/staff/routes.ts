import { emptyResponse, okResponse, xlsxResponse } from '@freight/contracts/responses';
import {
  savedIdView,
  staffListQuery,
  staffListView,
  staffSaveBody,
  staffStatusBody,
} from '@freight/contracts/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { badField, conflict, notFound } from '../../lib/errors.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import { currentUser } from '../../plugins/context.ts';
import {
  countStaffUsers,
  createUser,
  findUser,
  findUserByEmail,
  listStaffUsers,
  type StaffFilter,
  setUserEnabled,
  updateUserProfile,
} from '../auth/service.ts';
import {
  assignRoles,
  existingRoleIds,
  forgetCachedGrants,
  rolesOfUsers,
  userIdsHoldingRole,
} from '../roles/service.ts';

type StaffQuery = Omit<z.infer<typeof staffListQuery>, 'page' | 'limit'>;

/** The list's filter in the accounts' terms: a role becomes the users holding it. */
async function staffFilter(db: DbOrTx, tenantId: number, q: StaffQuery): Promise<StaffFilter> {
  return {
    keyword: q.keyword,
    enabled: q.enabled,
    userIds: q.roleId ? await userIdsHoldingRole(db, tenantId, q.roleId) : undefined,
  };
}

const routes: FastifyPluginAsyncZod = async (app) => {
  const view = { permission: '/staff-management' } as const;

  const staffRows = async (tenantId: number, filter: StaffFilter, page?: { page: number; limit: number }) => {
    const rows = await listStaffUsers(app.db, tenantId, filter, page);
    const rolesByUser = await rolesOfUsers(
      app.db,
      tenantId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...r, roles: rolesByUser.get(r.id) ?? [] }));
  };

  app.post(
    '/admin/staff/list',
    {
      config: view,
      schema: { tags: ['staff'], body: staffListQuery, response: { 200: okResponse(staffListView) } },
    },
    async (request) => {
      const { page, limit, ...query } = request.body;
      const filter = await staffFilter(app.db, request.tenant.id, query);
      const [list, total] = await Promise.all([
        staffRows(request.tenant.id, filter, { page, limit }),
        countStaffUsers(app.db, request.tenant.id, filter),
      ]);
      return { list, total, page, limit };
    },
  );

  app.post(
    '/admin/staff/export',
    {
      config: { ...view, raw: true },
      schema: { tags: ['staff'], body: staffListQuery, response: { 200: xlsxResponse } },
    },
    async (request, reply) => {
      const { page: _p, limit: _l, ...query } = request.body;
      const rows = await staffRows(request.tenant.id, await staffFilter(app.db, request.tenant.id, query));
      const en = request.language === 'en-US';
      return sendXlsx(
        reply,
        en ? 'staff.xlsx' : '员工.xlsx',
        [
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
          { header: en ? 'Last sign-in' : '最近登录', value: (r) => r.lastLoginAt },
          { header: en ? 'Created' : '创建时间', value: (r) => r.createdAt },
        ],
        rows,
      );
    },
  );

  app.post(
    '/admin/staff/save',
    {
      config: { permission: 'staff:save', audit: 'staff.save' },
      schema: { tags: ['staff'], body: staffSaveBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const tenantId = request.tenant.id;
      const body = request.body;
      const roleIds = await existingRoleIds(app.db, tenantId, body.roleIds);
      if (roleIds.length !== new Set(body.roleIds).size) throw badField('roleIds', 'validation.invalid');
      const id = await app.db.transaction(async (tx) => {
        if (body.id) {
          const existing = await findUser(tx, tenantId, body.id);
          if (!existing) throw notFound();
          if (existing.identity !== 'employee') throw conflict('staff.notStaff');
          const other = await findUserByEmail(tx, tenantId, body.email);
          if (other && other.id !== existing.id) throw badField('email', 'auth.emailTaken');
          await updateUserProfile(tx, tenantId, existing.id, {
            email: body.email,
            name: body.name,
            phone: body.phone,
          });
          await assignRoles(tx, tenantId, existing.id, roleIds);
          return existing.id;
        }
        if (!body.password) throw badField('password', 'staff.passwordRequired');
        const created = await createUser(tx, tenantId, {
          email: body.email,
          password: body.password,
          identity: 'employee',
          name: body.name,
          phone: body.phone,
          // No company of their own: staff are shown the tenant's name in their language.
          company: '',
        });
        await assignRoles(tx, tenantId, created.id, roleIds);
        return created.id;
      });
      // Dropped again now the roles are committed (see assignRoles).
      forgetCachedGrants();
      request.auditTarget = `user:${id}`;
      return { id };
    },
  );

  app.post(
    '/admin/staff/setStatus',
    {
      config: { permission: 'staff:status', audit: 'staff.status' },
      schema: { tags: ['staff'], body: staffStatusBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      const tenantId = request.tenant.id;
      const me = currentUser(request);
      request.auditTarget = `user:${request.body.id}`;
      if (request.body.id === me.id && !request.body.enabled) throw conflict('staff.cannotDisableSelf');
      const target = await findUser(app.db, tenantId, request.body.id);
      if (!target) throw notFound();
      if (target.identity !== 'employee') throw conflict('staff.notStaff');
      await setUserEnabled(app.db, tenantId, target.id, request.body.enabled);
      return null;
    },
  );
};

export default routes;
