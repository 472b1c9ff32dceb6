import { z } from 'zod';
import { pageQuery } from './api.ts';
import { IDENTITIES } from './identity.ts';
import { listOf, pageOf, timestamp } from './responses.ts';
import { dayField, idField, instantField, MAX_ID, str } from './validation.ts';

/** A system notice popped up to its user (SPEC section 2 "Notice popups"), in the names SPEC section 7 uses. */
export const noticeView = z.object({
  /**
   * A system notice's id is positive; an announcement's is its id negated, so the two kinds never
   * collide in one list and `notice/read` knows which one it marks.
   */
  id: z.number().int(),
  type: z.number().int(),
  title: z.string(),
  content: z.string(),
  /** The popup's kind (`info`, `success`, `warning`, `error`); empty for system notices (shown as info). */
  pop_theme: z.string(),
  order_type: z.number().int(),
  /** The number of the order (or bill, work order) the notice is about. */
  order_sn: z.string(),
});
export const userNoticesView = listOf(noticeView);

/** A notice id as `userNotices` hands it out: positive for system notices, negative for announcements. */
export const noticeIdField = () =>
  z
    .number()
    .int()
    .min(-MAX_ID)
    .max(MAX_ID)
    .refine((v) => v !== 0, { error: 'validation.invalid' });

export const noticeReadBody = z.object({ id: noticeIdField() });

/** Turns an announcement's id into the id users see beside system notices, and back. */
export const announcementNoticeId = (announcementId: number) => -announcementId;
export const isAnnouncementNoticeId = (noticeId: number) => noticeId < 0;

/* ---------- the user's own notice list (`/notification`) ---------- */

export const NOTICE_READ_FILTERS = ['read', 'unread'] as const;

export const noticeListQuery = pageQuery.extend({
  /** Words in the title or the text. */
  keyword: str().trim().max(200).optional(),
  read: z.enum(NOTICE_READ_FILTERS).optional(),
});
export type NoticeListQuery = z.infer<typeof noticeListQuery>;

export const noticeListItem = noticeView.extend({
  /** `system` (reviews, bills, work orders) or `announcement` (written by staff). */
  kind: z.enum(['system', 'announcement']),
  /** When it reached the user: created, or for an announcement when its window opened. */
  at: timestamp,
  readAt: timestamp.nullable(),
});
export const noticeListView = pageOf(noticeListItem);

/* ---------- announcements written by staff (`/notificationAnnouncement`) ---------- */

export const ANNOUNCEMENT_STATUSES = ['draft', 'published', 'withdrawn'] as const;
export type AnnouncementStatus = (typeof ANNOUNCEMENT_STATUSES)[number];

/** The popup's kind: stored as a theme name and shown as AntD's notification/dialog kind. */
export const POP_THEMES = ['info', 'success', 'warning', 'error'] as const;
export type PopTheme = (typeof POP_THEMES)[number];

/** Who an announcement is for: everyone, users of some identities, or one organisation (and its subtree). */
export const AUDIENCES = ['all', 'identity', 'organisation'] as const;
export type Audience = (typeof AUDIENCES)[number];

/** SPEC section 3 "Notice": type 1 pops up as a toast, 2 as a dialog. */
export const ANNOUNCEMENT_TYPES = [1, 2] as const;

/** Only a draft or a withdrawn announcement may be deleted: a published one is withdrawn first. */
export const DELETABLE_STATUSES: readonly AnnouncementStatus[] = ['draft', 'withdrawn'];

export const MAX_ANNOUNCEMENT_HTML = 50_000;

export const announcementSaveBody = z
  .object({
    id: idField().optional(),
    title: str().trim().min(1).max(200),
    /** HTML from the editor; sanitised on save and again when shown. */
    content: str().max(MAX_ANNOUNCEMENT_HTML),
    type: z.union([z.literal(1), z.literal(2)]),
    popTheme: z.enum(POP_THEMES).default('info'),
    audience: z.enum(AUDIENCES),
    identities: z.array(z.enum(IDENTITIES)).max(IDENTITIES.length).default([]),
    organisationId: idField().nullable().optional(),
    /** With the organisation, every organisation under it too (an agent's customers). */
    includeSubtree: z.boolean().default(true),
    startsAt: instantField().nullable().optional(),
    endsAt: instantField().nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.audience === 'identity' && v.identities.length === 0)
      ctx.addIssue({ code: 'custom', path: ['identities'], message: 'validation.required' });
    if (v.audience === 'organisation' && !v.organisationId)
      ctx.addIssue({ code: 'custom', path: ['organisationId'], message: 'validation.required' });
    if (v.startsAt && v.endsAt && v.endsAt <= v.startsAt)
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'notice.endsBeforeStart' });
  });
export type AnnouncementSaveBody = z.infer<typeof announcementSaveBody>;

export const announcementListQuery = pageQuery.extend({
  /** Words in the title. */
  keyword: str().trim().max(200).optional(),
  status: z.enum(ANNOUNCEMENT_STATUSES).optional(),
  type: z.union([z.literal(1), z.literal(2)]).optional(),
  /** Created on or after this day. */
  from: dayField().optional(),
  /** Created on or before this day. */
  to: dayField().optional(),
});
export type AnnouncementListQuery = z.infer<typeof announcementListQuery>;

export const announcementView = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  type: z.number().int(),
  popTheme: z.string(),
  audience: z.enum(AUDIENCES),
  identities: z.array(z.string()),
  organisationId: z.number().int().nullable(),
  organisationName: z.string(),
  includeSubtree: z.boolean(),
  startsAt: timestamp.nullable(),
  endsAt: timestamp.nullable(),
  status: z.enum(ANNOUNCEMENT_STATUSES),
  publishedAt: timestamp.nullable(),
  createdBy: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  readCount: z.number().int(),
});
export const announcementListView = pageOf(announcementView);

export const announcementReadersQuery = pageQuery.extend({ id: idField() });

export const announcementReaderView = z.object({
  userId: z.number().int(),
  email: z.string(),
  name: z.string(),
  company: z.string(),
  readAt: timestamp,
});
export const announcementReadersView = pageOf(announcementReaderView).extend({
  /** How many users have read it, and how many it is aimed at now. */
  readCount: z.number().int(),
  targetCount: z.number().int(),
});

export const organisationOptionsQuery = z.object({ keyword: str().trim().max(100).optional() });
export const organisationOptionsView = listOf(
  z.object({ id: z.number().int(), name: z.string(), type: z.string() }),
);
