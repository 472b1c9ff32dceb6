import type { Language } from '@freight/contracts/api';
import { isMessageKey, type MessageKey, translate } from '@freight/contracts/messages';
import { and, asc, eq, isNull } from 'drizzle-orm';
import sanitizeHtml from 'sanitize-html';
import type { DbOrTx } from '../../db/client.ts';
import { findUser } from '../auth/service.ts';
import { notices } from './schema.ts';

/** SPEC section 3 "Notice": `order_type` says what the notice's view button opens. */
export const NoticeOrderType = {
  General: 0,
  Order: 1,
  WorkOrder: 2,
  AccountDetail: 3,
  ExpressOrder: 4,
  AbnormalBilling: 5,
} as const;

/** `type` 1 pops up as a toast; any other type opens a dialog. */
export const NoticeType = { Toast: 1, Dialog: 2 } as const;

export type NoticeRow = typeof notices.$inferSelect;

export interface NewNotice {
  tenantId: number;
  userId: number;
  type?: number;
  /** Text as it is shown to every reader (system messages go through `noticeUser`, as keys). */
  title: string;
  /** HTML; sanitised here, on write, and again by the browser when shown. */
  content: string;
  orderType?: number;
  orderSn?: string;
}

/** Stores a system notice for one user; callers pass their transaction so it lands with the change it reports. */
export async function createNotice(db: DbOrTx, notice: NewNotice): Promise<void> {
  await db.insert(notices).values({ ...notice, content: sanitizeHtml(notice.content) });
}

/** A parameter of a notice's message: as it is, or a message key read in the reader's language too. */
export type NoticeParam = string | number | { key: MessageKey };

/** A message as a notice stores it: its key and parameters, put into words when the notice is read. */
export interface NoticeMessage {
  key: MessageKey;
  params?: Record<string, NoticeParam>;
}

export interface UserNotice {
  tenantId: number;
  userId: number;
  type?: number;
  title: MessageKey;
  content: NoticeMessage;
  orderType: number;
  orderSn: string;
}

/**
 * The one way a module tells a user what happened to their order, bill, recharge or request, in the
 * caller's transaction. The notice keeps the message's key and parameters (the title column holds the
 * title's key, the content column the message as JSON), so it is read in whatever language the reader
 * uses when they read it. A user who no longer exists is told nothing.
 */
export async function noticeUser(db: DbOrTx, notice: UserNotice): Promise<boolean> {
  const reader = await findUser(db, notice.tenantId, notice.userId);
  if (!reader) return false;
  await db.insert(notices).values({
    tenantId: notice.tenantId,
    userId: reader.id,
    type: notice.type ?? NoticeType.Toast,
    title: notice.title,
    content: JSON.stringify({ key: notice.content.key, params: notice.content.params ?? {} }),
    orderType: notice.orderType,
    orderSn: notice.orderSn,
  });
  return true;
}

function storedMessage(content: string): NoticeMessage | null {
  if (!content.startsWith('{')) return null;
  try {
    const message = JSON.parse(content) as Partial<NoticeMessage>;
    return typeof message.key === 'string' && isMessageKey(message.key)
      ? { key: message.key, params: message.params ?? {} }
      : null;
  } catch {
    return null;
  }
}

/**
 * A notice's title and content in the reader's language. Notices written as keys (the title is a
 * message key) are put into words now; older ones, stored as text in one language, show as stored.
 * The words are sanitised as notice HTML always is: a parameter may carry what a user typed.
 */
export function renderNotice(
  row: { title: string; content: string },
  language: Language,
): { title: string; content: string } {
  const message = storedMessage(row.content);
  if (!message || !isMessageKey(row.title)) return { title: row.title, content: row.content };
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(message.params ?? {}))
    params[name] =
      typeof value === 'object' && value !== null
        ? isMessageKey(value.key)
          ? translate(language, value.key)
          : ''
        : value;
  return {
    title: translate(language, row.title),
    content: sanitizeHtml(translate(language, message.key, params)),
  };
}

/** At most this many unread notices pop up at once, oldest first; the rest follow as these are read. */
export const UNREAD_BATCH = 20;

/** The user's unread notices, oldest first. Reading them does not mark them: `markNoticeRead` does. */
export async function unreadNotices(db: DbOrTx, tenantId: number, userId: number): Promise<NoticeRow[]> {
  return db
    .select()
    .from(notices)
    .where(and(eq(notices.tenantId, tenantId), eq(notices.userId, userId), isNull(notices.readAt)))
    .orderBy(asc(notices.id))
    .limit(UNREAD_BATCH);
}

/**
 * Marks one of the user's own notices read. Another user's notice, or an unknown id, is `false`;
 * a notice read before stays as it was (reading twice is harmless).
 */
export async function markNoticeRead(
  db: DbOrTx,
  tenantId: number,
  userId: number,
  noticeId: number,
): Promise<boolean> {
  const [own] = await db
    .select({ readAt: notices.readAt })
    .from(notices)
    .where(and(eq(notices.tenantId, tenantId), eq(notices.userId, userId), eq(notices.id, noticeId)))
    .limit(1);
  if (!own) return false;
  if (own.readAt) return true;
  await db
    .update(notices)
    .set({ readAt: new Date() })
    .where(and(eq(notices.tenantId, tenantId), eq(notices.id, noticeId), isNull(notices.readAt)));
  return true;
}
