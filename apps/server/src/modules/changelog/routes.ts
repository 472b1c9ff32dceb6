import {
  changelogFeedView,
  changelogIdBody,
  changelogListQuery,
  changelogListView,
  changelogSaveBody,
} from '@freight/contracts/changelog';
import { emptyResponse, okResponse } from '@freight/contracts/responses';
import { savedIdView } from '@freight/contracts/roles';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { notFound } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/context.ts';
import { deleteEntry, feedFor, listEntries, markSeen, saveEntry } from './service.ts';

const PAGE = '/featureUpdates';

const routes: FastifyPluginAsyncZod = async (app) => {
  // Every signed-in user reads the feature updates from the top bar.
  app.post(
    '/admin/changelog/feed',
    { schema: { tags: ['changelog'], response: { 200: okResponse(changelogFeedView) } } },
    async (request) => feedFor(app.db, request.tenant.id, currentUser(request).id),
  );

  app.post(
    '/admin/changelog/seen',
    { schema: { tags: ['changelog'], response: { 200: emptyResponse } } },
    async (request) => {
      await markSeen(app.db, request.tenant.id, currentUser(request).id);
      return null;
    },
  );

  app.post(
    '/admin/changelog/list',
    {
      config: { permission: PAGE, labelScope: 'changelog' },
      schema: {
        tags: ['changelog'],
        body: changelogListQuery,
        response: { 200: okResponse(changelogListView) },
      },
    },
    async (request) => {
      const { page, limit, ...filter } = request.body;
      return { ...(await listEntries(app.db, request.tenant.id, filter, { page, limit })), page, limit };
    },
  );

  app.post(
    '/admin/changelog/save',
    {
      config: { permission: 'changelog:save', audit: 'changelog.save', labelScope: 'changelog' },
      schema: { tags: ['changelog'], body: changelogSaveBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const id = await saveEntry(app.db, request.tenant.id, currentUser(request).id, request.body);
      if (!id) throw notFound('changelog.notFound');
      request.auditTarget = `changelog:${id}`;
      return { id };
    },
  );

  app.post(
    '/admin/changelog/delete',
    {
      config: { permission: 'changelog:delete', audit: 'changelog.delete' },
      schema: { tags: ['changelog'], body: changelogIdBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      if (!(await deleteEntry(app.db, request.tenant.id, request.body.id)))
        throw notFound('changelog.notFound');
      request.auditTarget = `changelog:${request.body.id}`;
      return null;
    },
  );
};

export default routes;
