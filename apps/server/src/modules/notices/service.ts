import { and, asc, eq, isNull } from 'drizzle-orm';
import sanitizeHtml from 'sanitize-html';
import type { DbOrTx } from '../../db/client.ts';
import { notices } from './schema.ts';

export interface NewNotice {
  tenantId: number;
  userId: number;
  type?: number;
  title: string;
  /** HTML; sanitised here, on write, and again by the browser when shown. */
  content: string;
  orderType?: number;
  orderSn?: string;
}

export async function createNotice(db: DbOrTx, notice: NewNotice): Promise<void> {
  await db.insert(notices).values({ ...notice, content: sanitizeHtml(notice.content) });
}

/** The user's notices not yet shown, marked shown in the same step so each pops up once. */
export async function takeUndelivered(db: DbOrTx, tenantId: number, userId: number) {
  return db.transaction(async (tx) => {
    const rows = await tx
      .select()
      .from(notices)
      .where(and(eq(notices.tenantId, tenantId), eq(notices.userId, userId), isNull(notices.deliveredAt)))
      .orderBy(asc(notices.id))
      .limit(20)
      .for('update');
    for (const row of rows)
      await tx
        .update(notices)
        .set({ deliveredAt: new Date() })
        .where(and(eq(notices.tenantId, tenantId), eq(notices.id, row.id)));
    return rows;
  });
}
