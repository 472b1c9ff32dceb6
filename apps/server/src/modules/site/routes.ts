import { siteConfigBody } from '@freight/contracts/site';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { publicBranding, updateBranding } from './service.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/admin/auth/getHostConfig',
    { config: { public: true }, schema: { tags: ['site'] } },
    async (request) => publicBranding(request.tenant, request.host),
  );

  app.post(
    '/admin/site/info',
    { config: { permission: '/site-configuration' }, schema: { tags: ['site'] } },
    async (request) => {
      const {
        siteName,
        buttonColor,
        logoUrl,
        logoCollapsedUrl,
        faviconUrl,
        copyright,
        filingNumber,
        filingHosts,
      } = request.tenant.branding;
      return {
        siteName,
        buttonColor,
        logoUrl,
        logoCollapsedUrl,
        faviconUrl,
        copyright,
        filingNumber,
        filingHosts,
      };
    },
  );

  app.post(
    '/admin/site/save',
    {
      config: { permission: 'site:save', audit: 'site.save' },
      schema: { tags: ['site'], body: siteConfigBody },
    },
    async (request) => {
      await updateBranding(app.db, request.tenant.id, { ...request.tenant.branding, ...request.body });
      app.forgetTenant(request.tenant.code);
      request.auditTarget = `tenant:${request.tenant.code}`;
      return null;
    },
  );
};

export default routes;
