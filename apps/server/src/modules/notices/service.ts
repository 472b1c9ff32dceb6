import { languageFromLocale } from '@freight/contracts/api';
import { type MessageKey, translate } from '@freight/contracts/messages';
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
  /** Already in the user's language: a notice is written once, for one reader. */
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

/** Translates a message key with its parameters into the reader's language. */
export type Translator = (key: MessageKey, params?: Record<string, string | number>) => string;

export interface UserNotice {
  tenantId: number;
  userId: number;
  type?: number;
  title: MessageKey;
  /** The content, written with the reader's translator so every part is in their language. */
  content: (t: Translator) => string;
  orderType: number;
  orderSn: string;
}

/**
 * The one way a module tells a user what happened to their order, bill, recharge or request: in
 * the user's own language, in the caller's transaction. A user who no longer exists is told nothing.
 */
export async function noticeUser(db: DbOrTx, notice: UserNotice): Promise<boolean> {
  const reader = await findUser(db, notice.tenantId, notice.userId);
  if (!reader) return false;
  const language = languageFromLocale(reader.locale);
  const t: Translator = (key, params = {}) => translate(language, key, params);
  await createNotice(db, {
    tenantId: notice.tenantId,
    userId: reader.id,
    type: notice.type ?? NoticeType.Toast,
    title: t(notice.title),
    content: notice.content(t),
    orderType: notice.orderType,
    orderSn: notice.orderSn,
  });
  return true;
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
