import { exportResponse } from '@freight/contracts/downloads';
import { emptyResponse, okResponse } from '@freight/contracts/responses';
import {
  savedIdView,
  staffListQuery,
  staffListView,
  staffSaveBody,
  staffStatusBody,
} from '@freight/contracts/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badField, conflict, notFound } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/context.ts';
import { createUser, findUser, findUserByEmail } from '../auth/service.ts';
import { setUserEnabled, updateUserProfile } from '../auth/users.ts';
import { answerExport } from '../downloads/runner.ts';
import { assignRoles, existingRoleIds, forgetCachedGrants } from '../roles/service.ts';
import { staffExport } from './export.ts';
import { listStaff } from './service.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  const view = { permission: '/staff-management' } as const;

  app.post(
    '/admin/staff/list',
    {
      config: view,
      schema: { tags: ['staff'], body: staffListQuery, response: { 200: okResponse(staffListView) } },
    },
    async (request) => {
      const { page, limit, ...query } = request.body;
      const { list, total } = await listStaff(app.db, request.tenant.id, query, { page, limit });
      return { list, total, page, limit };
    },
  );

  app.post(
    '/admin/staff/export',
    {
      config: { ...view, raw: true },
      schema: { tags: ['staff'], body: staffListQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, staffExport, request.body),
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
