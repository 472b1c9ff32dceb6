import { adsView, checkedAddressView, serverTimeView } from '@freight/contracts/common';
import { okResponse } from '@freight/contracts/responses';
import { publicBrandingView } from '@freight/contracts/site';
import { str, zipField } from '@freight/contracts/validation';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { adsFor } from '../site/ads.ts';
import { publicBranding } from '../site/service.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/common/params/getServerTime',
    { config: { public: true }, schema: { tags: ['common'], response: { 200: okResponse(serverTimeView) } } },
    async () => {
      const now = new Date();
      return { time: now.toISOString(), timestamp: now.getTime() };
    },
  );

  app.post(
    '/common/params/getInfoByDomain',
    {
      config: { public: true },
      schema: { tags: ['common'], response: { 200: okResponse(publicBrandingView) } },
    },
    async (request) => publicBranding(request.tenant, request.host),
  );

  /** Checks an address's shape (SPEC section 5); carriers' own address checks plug in with the truck module. */
  app.post(
    '/common/params/checkAddress',
    {
      schema: {
        tags: ['common'],
        response: { 200: okResponse(checkedAddressView) },
        body: z.object({
          address1: str().trim().min(1).max(200),
          city: str().trim().min(1).max(60),
          state: str().trim().min(1).max(60),
          zipcode: zipField,
          country: str().trim().min(1).max(60),
        }),
      },
    },
    async (request) => ({ valid: true, normalized: request.body }),
  );

  /** Ads for the top strip: the external feed when `AD_SERVICE_URL` is set, else the tenant's own list. */
  app.get(
    '/common/ads',
    { schema: { tags: ['common'], response: { 200: okResponse(adsView) } } },
    async (request) => ({ list: await adsFor(request.tenant, app.config.AD_SERVICE_URL) }),
  );
};

export default routes;
