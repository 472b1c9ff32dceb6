import type { Identity } from '@freight/contracts/identity';
import {
  type AnnouncementListQuery,
  type AnnouncementSaveBody,
  type AnnouncementStatus,
  DELETABLE_STATUSES,
  type NoticeListQuery,
} from '@freight/contracts/notices';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { unionAll } from 'drizzle-orm/pg-core';
import sanitizeHtml from 'sanitize-html';
import type { DbOrTx } from '../../db/client.ts';
import { badField, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { containing, dayRange } from '../../lib/filters.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { countUsers, usersByIds } from '../auth/users.ts';
import {
  findOrganisation,
  organisationNames,
  organisationOptions,
  visibleOrganisationIds,
} from '../customers/service.ts';
import { announcementReads, announcements, notices } from './schema.ts';

export type AnnouncementRow = typeof announcements.$inferSelect;

/**
 * What rich text an announcement may carry: sanitize-html's defaults (headings, lists, links, tables,
 * emphasis) plus images and the few inline styles the editor writes for alignment and colour.
 */
const ANNOUNCEMENT_HTML: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'span', 'u', 's'],
  allowedAttributes: {
    ...sanitizeHtml.defaults.allowedAttributes,
    img: ['src', 'alt', 'title', 'width', 'height'],
    a: ['href', 'name', 'target', 'rel'],
    '*': ['style'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedStyles: {
    '*': {
      'text-align': [/^(left|right|center|justify)$/],
      color: [/^#[0-9a-f]{3,6}$/i, /^rgb\(\d{1,3}, ?\d{1,3}, ?\d{1,3}\)$/],
    },
  },
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

export function sanitizeAnnouncement(html: string): string {
  return sanitizeHtml(html, ANNOUNCEMENT_HTML);
}

/** Announcements are written and managed by staff only, whatever a role grants (ARCHITECTURE section 5). */
function staffOnly(user: Pick<RequestUser, 'identity'>) {
  if (user.identity !== 'employee') throw forbidden();
}

/* ---------- who an announcement reaches ---------- */

/** A reader as the audience rules see it: identity, own organisation and every organisation above it. */
export interface Reader {
  tenantId: number;
  userId: number;
  identity: Identity;
  organisationId: number | null;
  /** The reader's organisation and its ancestors (from the tree's path), root first. */
  lineage: number[];
}

export async function readerOf(
  db: DbOrTx,
  user: Pick<RequestUser, 'tenantId' | 'id' | 'identity' | 'organisationId'>,
): Promise<Reader> {
  const own = user.organisationId ? await findOrganisation(db, user.tenantId, user.organisationId) : null;
  const lineage = (own?.path ?? '')
    .split('/')
    .filter((part) => /^\d+$/.test(part))
    .map(Number);
  return {
    tenantId: user.tenantId,
    userId: user.id,
    identity: user.identity,
    organisationId: own?.id ?? null,
    lineage,
  };
}

/** The announcements aimed at this reader, whatever their status and window. */
function aimedAt(reader: Reader): SQL | undefined {
  return or(
    eq(announcements.audience, 'all'),
    and(
      eq(announcements.audience, 'identity'),
      sql`${announcements.identities} @> array[${reader.identity}]::text[]`,
    ),
    reader.organisationId
      ? and(
          eq(announcements.audience, 'organisation'),
          or(
            eq(announcements.organisationId, reader.organisationId),
            and(
              eq(announcements.includeSubtree, true),
              inArray(announcements.organisationId, reader.lineage),
            ),
          ),
        )
      : undefined,
  );
}

/** Published and inside its window now. */
function live(now: Date): SQL | undefined {
  return and(
    eq(announcements.status, 'published'),
    or(isNull(announcements.startsAt), lte(announcements.startsAt, now)),
    or(isNull(announcements.endsAt), gt(announcements.endsAt, now)),
  );
}

/** When an announcement reached its readers: published, or later when its window opened. */
const shownAt = sql<Date>`greatest(${announcements.publishedAt}, ${announcements.startsAt})`;

/* ---------- the reader's side ---------- */

const readJoin = (reader: Reader) =>
  and(
    eq(announcementReads.tenantId, announcements.tenantId),
    eq(announcementReads.announcementId, announcements.id),
    eq(announcementReads.userId, reader.userId),
  );

/** The reader's unread live announcements, oldest first, shaped as SPEC section 3's Notice. */
export async function unreadAnnouncements(db: DbOrTx, reader: Reader, limit: number, now = new Date()) {
  const rows = await db
    .select({
      id: announcements.id,
      type: announcements.type,
      title: announcements.title,
      content: announcements.content,
      popTheme: announcements.popTheme,
      at: shownAt,
    })
    .from(announcements)
    .leftJoin(announcementReads, readJoin(reader))
    .where(
      and(
        eq(announcements.tenantId, reader.tenantId),
        live(now),
        aimedAt(reader),
        isNull(announcementReads.userId),
      ),
    )
    .orderBy(asc(shownAt), asc(announcements.id))
    .limit(limit);
  return rows.map((r) => ({ ...r, at: new Date(r.at) }));
}

/**
 * Marks a live announcement aimed at the reader as read; one the reader cannot see (another
 * audience's, withdrawn, outside its window, another tenant's) is `false`. Reading twice keeps the first time.
 */
export async function markAnnouncementRead(db: DbOrTx, reader: Reader, announcementId: number) {
  const [visible] = await db
    .select({ id: announcements.id })
    .from(announcements)
    .where(
      and(
        eq(announcements.tenantId, reader.tenantId),
        eq(announcements.id, announcementId),
        live(new Date()),
        aimedAt(reader),
      ),
    )
    .limit(1);
  if (!visible) return false;
  await db
    .insert(announcementReads)
    .values({ tenantId: reader.tenantId, announcementId, userId: reader.userId })
    .onConflictDoNothing();
  return true;
}

/**
 * The reader's notices of both kinds, newest first, one page: system notices and the live
 * announcements aimed at them, searched by title or text, read or unread.
 */
export async function listReaderNotices(db: DbOrTx, reader: Reader, query: NoticeListQuery) {
  const pattern = query.keyword ? containing(query.keyword) : null;
  const system = db
    .select({
      id: notices.id,
      kind: sql<string>`'system'::text`.as('kind'),
      type: notices.type,
      title: notices.title,
      content: notices.content,
      popTheme: sql<string>`''::text`.as('pop_theme'),
      orderType: notices.orderType,
      orderSn: notices.orderSn,
      at: sql<Date>`${notices.createdAt}`.as('at'),
      readAt: sql<Date | null>`${notices.readAt}`.as('read_at'),
    })
    .from(notices)
    .where(
      and(
        eq(notices.tenantId, reader.tenantId),
        eq(notices.userId, reader.userId),
        pattern ? or(ilike(notices.title, pattern), ilike(notices.content, pattern)) : undefined,
        query.read === 'read' ? isNotNull(notices.readAt) : undefined,
        query.read === 'unread' ? isNull(notices.readAt) : undefined,
      ),
    );
  const announced = db
    .select({
      id: sql<number>`-${announcements.id}`.as('id'),
      kind: sql<string>`'announcement'::text`.as('kind'),
      type: announcements.type,
      title: announcements.title,
      content: announcements.content,
      popTheme: sql<string>`${announcements.popTheme}`.as('pop_theme'),
      orderType: sql<number>`0`.as('order_type'),
      orderSn: sql<string>`''::text`.as('order_sn'),
      at: sql<Date>`${shownAt}`.as('at'),
      readAt: sql<Date | null>`${announcementReads.readAt}`.as('read_at'),
    })
    .from(announcements)
    .leftJoin(announcementReads, readJoin(reader))
    .where(
      and(
        eq(announcements.tenantId, reader.tenantId),
        live(new Date()),
        aimedAt(reader),
        pattern ? or(ilike(announcements.title, pattern), ilike(announcements.content, pattern)) : undefined,
        query.read === 'read' ? isNotNull(announcementReads.userId) : undefined,
        query.read === 'unread' ? isNull(announcementReads.userId) : undefined,
      ),
    );
  const both = unionAll(system, announced).as('both');
  const [total] = await db.select({ n: count() }).from(both);
  const rows = await db
    .select()
    .from(both)
    .orderBy(desc(both.at), desc(both.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return {
    list: rows.map((r) => ({
      id: Number(r.id),
      kind: r.kind as 'system' | 'announcement',
      type: Number(r.type),
      title: r.title,
      content: r.content,
      pop_theme: r.popTheme,
      order_type: Number(r.orderType),
      order_sn: r.orderSn,
      at: new Date(r.at),
      readAt: r.readAt ? new Date(r.readAt) : null,
    })),
    total: total?.n ?? 0,
    page: query.page,
    limit: query.limit,
  };
}

/* ---------- the staff's side ---------- */

async function findAnnouncement(db: DbOrTx, tenantId: number, id: number): Promise<AnnouncementRow> {
  const [row] = await db
    .select()
    .from(announcements)
    .where(and(eq(announcements.tenantId, tenantId), eq(announcements.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** Rows as the management page shows them: with the organisation's and the author's names, and reads. */
async function present(db: DbOrTx, tenantId: number, rows: AnnouncementRow[]) {
  const ids = rows.map((r) => r.id);
  const orgNames = await organisationNames(
    db,
    tenantId,
    rows.flatMap((r) => (r.organisationId ? [r.organisationId] : [])),
  );
  const authors = new Map(
    (
      await usersByIds(db, tenantId, [...new Set(rows.flatMap((r) => (r.createdBy ? [r.createdBy] : [])))])
    ).map((u) => [u.id, u.name || u.email]),
  );
  const reads =
    ids.length === 0
      ? []
      : await db
          .select({ id: announcementReads.announcementId, n: count() })
          .from(announcementReads)
          .where(
            and(eq(announcementReads.tenantId, tenantId), inArray(announcementReads.announcementId, ids)),
          )
          .groupBy(announcementReads.announcementId);
  const readCounts = new Map(reads.map((r) => [r.id, r.n]));
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    content: r.content,
    type: r.type,
    popTheme: r.popTheme,
    audience: r.audience,
    identities: r.identities,
    organisationId: r.organisationId,
    organisationName: r.organisationId ? (orgNames.get(r.organisationId) ?? '') : '',
    includeSubtree: r.includeSubtree,
    startsAt: r.startsAt,
    endsAt: r.endsAt,
    status: r.status,
    publishedAt: r.publishedAt,
    createdBy: r.createdBy ? (authors.get(r.createdBy) ?? '') : '',
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    readCount: readCounts.get(r.id) ?? 0,
  }));
}

export async function listAnnouncements(db: DbOrTx, user: RequestUser, query: AnnouncementListQuery) {
  staffOnly(user);
  const where = and(
    eq(announcements.tenantId, user.tenantId),
    query.keyword ? ilike(announcements.title, containing(query.keyword)) : undefined,
    query.status ? eq(announcements.status, query.status) : undefined,
    query.type ? eq(announcements.type, query.type) : undefined,
    ...dayRange(announcements.createdAt, query.from, query.to),
  );
  const [total] = await db.select({ n: count() }).from(announcements).where(where);
  const rows = await db
    .select()
    .from(announcements)
    .where(where)
    .orderBy(desc(announcements.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  return {
    list: await present(db, user.tenantId, rows),
    total: total?.n ?? 0,
    page: query.page,
    limit: query.limit,
  };
}

/** Creates or edits an announcement; its HTML is sanitised here. Editing keeps its status and reads. */
export async function saveAnnouncement(db: DbOrTx, user: RequestUser, body: AnnouncementSaveBody) {
  staffOnly(user);
  const content = sanitizeAnnouncement(body.content);
  // Nothing a reader would see is left (empty, or only what was removed as unsafe).
  if (!sanitizeHtml(content, { allowedTags: ['img'], allowedAttributes: { img: ['src'] } }).trim())
    throw badField('content', 'notice.contentEmpty');
  const organisationId = body.audience === 'organisation' ? (body.organisationId ?? null) : null;
  if (organisationId && !(await findOrganisation(db, user.tenantId, organisationId)))
    throw badField('organisationId', 'notice.organisationUnknown');
  const values = {
    title: body.title,
    content,
    type: body.type,
    popTheme: body.popTheme,
    audience: body.audience,
    identities: body.audience === 'identity' ? [...new Set(body.identities)] : [],
    organisationId,
    includeSubtree: body.includeSubtree,
    startsAt: body.startsAt ?? null,
    endsAt: body.endsAt ?? null,
  };
  if (body.id) {
    await findAnnouncement(db, user.tenantId, body.id);
    const [row] = await db
      .update(announcements)
      .set(values)
      .where(and(eq(announcements.tenantId, user.tenantId), eq(announcements.id, body.id)))
      .returning();
    return (await present(db, user.tenantId, row ? [row] : []))[0];
  }
  const [row] = await db
    .insert(announcements)
    .values({ ...values, tenantId: user.tenantId, createdBy: user.id, status: 'draft' })
    .returning();
  return (await present(db, user.tenantId, row ? [row] : []))[0];
}

/** Publishes (a draft, or again after withdrawing) or withdraws an announcement. */
export async function setAnnouncementStatus(
  db: DbOrTx,
  user: RequestUser,
  id: number,
  status: Extract<AnnouncementStatus, 'published' | 'withdrawn'>,
) {
  staffOnly(user);
  const row = await findAnnouncement(db, user.tenantId, id);
  if (row.status === status) return;
  if (status === 'withdrawn' && row.status !== 'published') throw conflict();
  await db
    .update(announcements)
    .set({ status, ...(status === 'published' ? { publishedAt: new Date() } : {}) })
    .where(and(eq(announcements.tenantId, user.tenantId), eq(announcements.id, id)));
}

export async function deleteAnnouncement(db: DbOrTx, user: RequestUser, id: number) {
  staffOnly(user);
  const row = await findAnnouncement(db, user.tenantId, id);
  if (!DELETABLE_STATUSES.includes(row.status)) throw conflict('notice.notDeletable');
  await db.transaction(async (tx) => {
    await tx
      .delete(announcementReads)
      .where(and(eq(announcementReads.tenantId, user.tenantId), eq(announcementReads.announcementId, id)));
    await tx
      .delete(announcements)
      .where(and(eq(announcements.tenantId, user.tenantId), eq(announcements.id, id)));
  });
}

/** How many users an announcement is aimed at now (its audience, whatever its status). */
async function targetCount(db: DbOrTx, row: AnnouncementRow): Promise<number> {
  if (row.audience === 'all') return countUsers(db, row.tenantId);
  if (row.audience === 'identity') return countUsers(db, row.tenantId, { identities: row.identities });
  if (!row.organisationId) return 0;
  if (!row.includeSubtree) return countUsers(db, row.tenantId, { organisationIds: [row.organisationId] });
  const org = await findOrganisation(db, row.tenantId, row.organisationId);
  if (!org) return 0;
  return countUsers(db, row.tenantId, {
    organisationIds: visibleOrganisationIds(db, { kind: 'subtree', tenantId: row.tenantId, path: org.path }),
  });
}

/** Who has read an announcement, latest first, one page; with how many read it and how many it is for. */
export async function announcementReaders(
  db: DbOrTx,
  user: RequestUser,
  query: { id: number; page: number; limit: number },
) {
  staffOnly(user);
  const row = await findAnnouncement(db, user.tenantId, query.id);
  const where = and(
    eq(announcementReads.tenantId, user.tenantId),
    eq(announcementReads.announcementId, row.id),
  );
  const [total] = await db.select({ n: count() }).from(announcementReads).where(where);
  const reads = await db
    .select({ userId: announcementReads.userId, readAt: announcementReads.readAt })
    .from(announcementReads)
    .where(where)
    .orderBy(desc(announcementReads.readAt), desc(announcementReads.userId))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  const people = new Map(
    (
      await usersByIds(
        db,
        user.tenantId,
        reads.map((r) => r.userId),
      )
    ).map((u) => [u.id, u]),
  );
  const readCount = total?.n ?? 0;
  return {
    list: reads.map((r) => {
      const who = people.get(r.userId);
      return {
        userId: r.userId,
        email: who?.email ?? '',
        name: who?.name ?? '',
        company: who?.company ?? '',
        readAt: r.readAt,
      };
    }),
    total: readCount,
    page: query.page,
    limit: query.limit,
    readCount,
    targetCount: await targetCount(db, row),
  };
}

/** Organisations staff may aim an announcement at, by name. */
export async function audienceOrganisations(db: DbOrTx, user: RequestUser, keyword?: string) {
  staffOnly(user);
  return {
    list: await organisationOptions(db, { kind: 'tenant', tenantId: user.tenantId }, keyword ?? '', 50),
  };
}
