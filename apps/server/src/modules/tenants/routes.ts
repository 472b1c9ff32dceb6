import { emptyResponse, okResponse } from '@freight/contracts/responses';
import {
  tenantCreateBody,
  tenantCreatedView,
  tenantListQuery,
  tenantListView,
  tenantSaveBody,
  tenantStatusBody,
} from '@freight/contracts/tenants';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { forbidden } from '../../lib/errors.ts';
import { isPlatformTenant } from '../site/service.ts';
import { createTenantWithAdmin, listAllTenants, setTenantStatus, updateTenant } from './service.ts';

const PAGE = '/tenantManagement';

const routes: FastifyPluginAsyncZod = async (app) => {
  // The grant of this page counts only in the default tenant already (roles/service.ts); this says it
  // again where the calls are, so no role editing elsewhere can ever reach them.
  app.addHook('preHandler', async (request) => {
    if (!isPlatformTenant(request.tenant)) throw forbidden('tenants.platformOnly');
  });

  app.post(
    '/admin/tenants/list',
    {
      config: { permission: PAGE, labelScope: 'tenant' },
      schema: { tags: ['tenants'], body: tenantListQuery, response: { 200: okResponse(tenantListView) } },
    },
    async (request) => {
      const { page, limit, ...filter } = request.body;
      const { list, total } = await listAllTenants(app.db, filter, { page, limit });
      return { list, total, page, limit };
    },
  );

  app.post(
    '/admin/tenants/create',
    {
      config: { permission: 'tenant:save', audit: 'tenant.create', labelScope: 'tenant' },
      schema: { tags: ['tenants'], body: tenantCreateBody, response: { 200: okResponse(tenantCreatedView) } },
    },
    async (request) => {
      // The link opens on the new tenant's host, over this request's scheme and port.
      const port = /:(\d+)$/.exec(request.host)?.[0] ?? '';
      const created = await createTenantWithAdmin(
        app.db,
        app.mailer,
        { ...request.body, language: request.language },
        (host) => `${request.protocol}://${host}${port}`,
      );
      request.auditTarget = `tenant:${created.tenant.code}`;
      return { id: created.tenant.id, code: created.tenant.code, adminEmail: request.body.adminEmail };
    },
  );

  app.post(
    '/admin/tenants/save',
    {
      config: { permission: 'tenant:save', audit: 'tenant.save', labelScope: 'tenant' },
      schema: { tags: ['tenants'], body: tenantSaveBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      await updateTenant(app.db, request.body);
      app.forgetTenant();
      request.auditTarget = `tenant:${request.body.id}`;
      return null;
    },
  );

  app.post(
    '/admin/tenants/setStatus',
    {
      config: { permission: 'tenant:status', audit: 'tenant.status', labelScope: 'tenant' },
      schema: { tags: ['tenants'], body: tenantStatusBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      await setTenantStatus(app.db, request.body.id, request.body.enabled);
      app.forgetTenant();
      request.auditTarget = `tenant:${request.body.id}`;
      return null;
    },
  );
};

export default routes;
