import type { Identity } from '@freight/contracts/identity';
import type { AnnouncementStatus, Audience } from '@freight/contracts/notices';
import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, updatedAt } from '../../db/columns.ts';

/**
 * Notices for one user: system messages (a recharge reviewed, a surcharge charged). `type` 1 pops as a
 * toast, others as a dialog; `orderType` and `orderSn` say where its view button leads (SPEC section 3).
 */
export const notices = pgTable(
  'notices',
  {
    tenantId: tenantId(),
    id: id(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    type: integer('type').notNull().default(1),
    title: text('title').notNull(),
    content: text('content').notNull(),
    orderType: integer('order_type').notNull().default(0),
    orderSn: text('order_sn').notNull().default(''),
    createdAt: createdAt(),
    /** Set when the user has seen it (`notice/read`); until then it pops up on every load. */
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('notices_unread').on(t.tenantId, t.userId, t.readAt),
  ],
);

/**
 * Announcements staff write for many users at once (`/notificationAnnouncement`). Who sees one is
 * decided when it is read, from `audience`: everyone, users of `identities`, or the users of
 * `organisationId` (and, with `includeSubtree`, of every organisation under it). It pops up while
 * `published` and inside its window (`startsAt`..`endsAt`, either open-ended).
 */
export const announcements = pgTable(
  'announcements',
  {
    tenantId: tenantId(),
    id: id(),
    title: text('title').notNull(),
    /** Sanitised HTML. */
    content: text('content').notNull(),
    type: integer('type').notNull().default(2),
    popTheme: text('pop_theme').notNull().default('info'),
    audience: text('audience').$type<Audience>().notNull(),
    identities: text('identities').array().$type<Identity[]>().notNull().default([]),
    organisationId: bigint('organisation_id', { mode: 'number' }),
    includeSubtree: boolean('include_subtree').notNull().default(true),
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    status: text('status').$type<AnnouncementStatus>().notNull().default('draft'),
    publishedAt: timestamp('published_at', { withTimezone: true }),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('announcements_status').on(t.tenantId, t.status),
  ],
);

/** Who has read which announcement, and when: one row per (announcement, user). */
export const announcementReads = pgTable(
  'announcement_reads',
  {
    tenantId: tenantId(),
    announcementId: bigint('announcement_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.announcementId, t.userId] }),
    index('announcement_reads_user').on(t.tenantId, t.userId),
  ],
);
