import {
  announcementListQuery,
  announcementListView,
  announcementNoticeId,
  announcementReadersQuery,
  announcementReadersView,
  announcementSaveBody,
  announcementView,
  isAnnouncementNoticeId,
  noticeListQuery,
  noticeListView,
  noticeReadBody,
  organisationOptionsQuery,
  organisationOptionsView,
  userNoticesView,
} from '@freight/contracts/notices';
import { emptyResponse, okResponse } from '@freight/contracts/responses';
import { idBody } from '@freight/contracts/roles';
import { MAX_INT4, str } from '@freight/contracts/validation';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/context.ts';
import {
  announcementReaders,
  audienceOrganisations,
  deleteAnnouncement,
  listAnnouncements,
  listReaderNotices,
  markAnnouncementRead,
  readerOf,
  saveAnnouncement,
  setAnnouncementStatus,
  unreadAnnouncements,
} from './announcements.ts';
import { markNoticeRead, renderNotice, UNREAD_BATCH, unreadNotices } from './service.ts';

const MANAGE_PAGE = '/notificationAnnouncement';

/**
 * The signed-in user's notices (SPEC section 2 "Notice popups", `/notification`): system notices and
 * the announcements staff aimed at them, one list. Staff write announcements on `/notificationAnnouncement`.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  app.post(
    '/admin/notice/userNotices',
    {
      schema: {
        tags: ['notices'],
        // The client sends its token and type 0 (SPEC section 7); both are accepted and not needed.
        body: z.object({
          type: z
            .union([
              z.number().int().min(0).max(MAX_INT4),
              str()
                .regex(/^\d{1,9}$/)
                .transform(Number),
            ])
            .optional(),
          token: str().max(200).optional(),
        }),
        response: { 200: okResponse(userNoticesView) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const system = (await unreadNotices(db, me.tenantId, me.id)).map((n) => ({
        at: n.createdAt,
        notice: {
          id: n.id,
          type: n.type,
          // In the reader's language now, whatever language was theirs when it was written.
          ...renderNotice(n, request.language),
          pop_theme: '',
          order_type: n.orderType,
          order_sn: n.orderSn,
        },
      }));
      const announced = (await unreadAnnouncements(db, await readerOf(db, me), UNREAD_BATCH)).map((a) => ({
        at: a.at,
        notice: {
          id: announcementNoticeId(a.id),
          type: a.type,
          title: a.title,
          content: a.content,
          pop_theme: a.popTheme,
          order_type: 0,
          order_sn: '',
        },
      }));
      // Both kinds in the order they reached the user, at most one batch at a time.
      const list = [...system, ...announced]
        .sort((a, b) => a.at.getTime() - b.at.getTime())
        .slice(0, UNREAD_BATCH)
        .map((n) => n.notice);
      return { list };
    },
  );

  app.post(
    '/admin/notice/read',
    { schema: { tags: ['notices'], body: noticeReadBody, response: { 200: emptyResponse } } },
    async (request) => {
      const me = currentUser(request);
      const { id } = request.body;
      const found = isAnnouncementNoticeId(id)
        ? await markAnnouncementRead(db, await readerOf(db, me), -id)
        : await markNoticeRead(db, me.tenantId, me.id, id);
      if (!found) throw notFound();
      return null;
    },
  );

  app.post(
    '/admin/notice/list',
    { schema: { tags: ['notices'], body: noticeListQuery, response: { 200: okResponse(noticeListView) } } },
    async (request) => {
      const page = await listReaderNotices(db, await readerOf(db, currentUser(request)), request.body);
      return {
        ...page,
        list: page.list.map((n) =>
          n.kind === 'system' ? { ...n, ...renderNotice(n, request.language) } : n,
        ),
      };
    },
  );

  /* ---------- announcements, for staff ---------- */

  const scope = { labelScope: 'notice' } as const;

  app.post(
    '/admin/notice/announcementList',
    {
      config: { ...scope, permission: MANAGE_PAGE },
      schema: {
        tags: ['notices'],
        body: announcementListQuery,
        response: { 200: okResponse(announcementListView) },
      },
    },
    async (request) => listAnnouncements(db, currentUser(request), request.body),
  );

  app.post(
    '/admin/notice/announcementSave',
    {
      config: { ...scope, permission: 'notice:save', audit: 'notice.announcement.save' },
      schema: {
        tags: ['notices'],
        body: announcementSaveBody,
        response: { 200: okResponse(announcementView) },
      },
    },
    async (request) => {
      const saved = await saveAnnouncement(db, currentUser(request), request.body);
      request.auditTarget = `announcement:${saved?.id}`;
      return saved;
    },
  );

  for (const [action, status] of [
    ['announcementPublish', 'published'],
    ['announcementWithdraw', 'withdrawn'],
  ] as const)
    app.post(
      `/admin/notice/${action}`,
      {
        config: { ...scope, permission: 'notice:save', audit: `notice.${action}` },
        schema: { tags: ['notices'], body: idBody, response: { 200: emptyResponse } },
      },
      async (request) => {
        request.auditTarget = `announcement:${request.body.id}`;
        await setAnnouncementStatus(db, currentUser(request), request.body.id, status);
        return null;
      },
    );

  app.post(
    '/admin/notice/announcementDelete',
    {
      config: { ...scope, permission: 'notice:delete', audit: 'notice.announcementDelete' },
      schema: { tags: ['notices'], body: idBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      request.auditTarget = `announcement:${request.body.id}`;
      await deleteAnnouncement(db, currentUser(request), request.body.id);
      return null;
    },
  );

  app.post(
    '/admin/notice/announcementReaders',
    {
      config: { ...scope, permission: MANAGE_PAGE },
      schema: {
        tags: ['notices'],
        body: announcementReadersQuery,
        response: { 200: okResponse(announcementReadersView) },
      },
    },
    async (request) => announcementReaders(db, currentUser(request), request.body),
  );

  app.post(
    '/admin/notice/organisations',
    {
      config: { ...scope, permission: ['notice:save', MANAGE_PAGE] },
      schema: {
        tags: ['notices'],
        body: organisationOptionsQuery,
        response: { 200: okResponse(organisationOptionsView) },
      },
    },
    async (request) => audienceOrganisations(db, currentUser(request), request.body.keyword),
  );
};

export default routes;
