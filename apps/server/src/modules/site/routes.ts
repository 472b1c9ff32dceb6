import { emptyResponse, okResponse } from '@freight/contracts/responses';
import {
  adsBody,
  adsConfigView,
  batchOrderHiddenBody,
  batchOrderHiddenView,
  publicBrandingView,
  siteConfigBody,
  siteConfigView,
  userOptionsQuery,
  userOptionsView,
} from '@freight/contracts/site';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badField } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/context.ts';
import { searchUsers, usersByIds } from '../auth/users.ts';
import { publicBranding, saveBranding, updateSettings } from './service.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/admin/auth/getHostConfig',
    {
      config: { public: true },
      schema: { tags: ['site'], response: { 200: okResponse(publicBrandingView) } },
    },
    async (request) => publicBranding(request.tenant, request.host),
  );

  app.post(
    '/admin/site/info',
    {
      config: { permission: '/site-configuration' },
      schema: { tags: ['site'], response: { 200: okResponse(siteConfigView) } },
    },
    async (request) => {
      const {
        siteName,
        siteNameEn,
        buttonColor,
        logoUrl,
        logoCollapsedUrl,
        faviconUrl,
        copyright,
        copyrightEn,
        filingNumber,
        filingHosts,
      } = request.tenant.branding;
      return {
        siteName,
        siteNameEn,
        buttonColor,
        logoUrl,
        logoCollapsedUrl,
        faviconUrl,
        copyright,
        copyrightEn,
        filingNumber,
        filingHosts,
      };
    },
  );

  app.post(
    '/admin/site/save',
    {
      config: { permission: 'site:save', audit: 'site.save' },
      schema: { tags: ['site'], body: siteConfigBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      await saveBranding(
        app.db,
        request.tenant,
        { ...request.tenant.branding, ...request.body },
        currentUser(request).id,
      );
      app.forgetTenant(request.tenant.code);
      request.auditTarget = `tenant:${request.tenant.code}`;
      return null;
    },
  );

  app.post(
    '/admin/site/batchOrder/info',
    {
      config: { permission: '/site-configuration' },
      schema: { tags: ['site'], response: { 200: okResponse(batchOrderHiddenView) } },
    },
    async (request) => ({
      users: await usersByIds(app.db, request.tenant.id, request.tenant.settings.batchOrderHiddenUserIds),
    }),
  );

  app.post(
    '/admin/site/batchOrder/save',
    {
      config: { permission: 'site:save', audit: 'site.batchOrder' },
      schema: { tags: ['site'], body: batchOrderHiddenBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      const ids = [...new Set(request.body.userIds)];
      // Only this tenant's users: an id from elsewhere is a mistake, not something to keep.
      const known = await usersByIds(app.db, request.tenant.id, ids);
      if (known.length !== ids.length) throw badField('userIds', 'site.unknownUser');
      await updateSettings(app.db, request.tenant.id, {
        ...request.tenant.settings,
        batchOrderHiddenUserIds: ids,
      });
      app.forgetTenant(request.tenant.code);
      request.auditTarget = `tenant:${request.tenant.code}`;
      return null;
    },
  );

  app.post(
    '/admin/site/ads/info',
    {
      config: { permission: '/site-configuration' },
      schema: { tags: ['site'], response: { 200: okResponse(adsConfigView) } },
    },
    async (request) => ({
      ads: request.tenant.settings.ads ?? [],
      externalFeed: Boolean(app.config.AD_SERVICE_URL),
    }),
  );

  app.post(
    '/admin/site/ads/save',
    {
      config: { permission: 'site:save', audit: 'site.ads' },
      schema: { tags: ['site'], body: adsBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      await updateSettings(app.db, request.tenant.id, { ...request.tenant.settings, ads: request.body.ads });
      app.forgetTenant(request.tenant.code);
      request.auditTarget = `tenant:${request.tenant.code}`;
      return null;
    },
  );

  app.post(
    '/admin/site/userOptions',
    {
      config: { permission: '/site-configuration' },
      schema: { tags: ['site'], body: userOptionsQuery, response: { 200: okResponse(userOptionsView) } },
    },
    async (request) => ({ list: await searchUsers(app.db, request.tenant.id, request.body.keyword) }),
  );
};

export default routes;
