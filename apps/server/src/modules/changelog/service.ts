import { and, count, desc, eq, ilike, lte, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { containing } from '../../lib/filters.ts';
import { changelogEntries, changelogReads } from './schema.ts';

/** How many published entries the top bar's drawer lists. */
export const FEED_SIZE = 50;

export interface ChangelogInput {
  title: string;
  body: string;
  publishedAt: Date;
}

const entryColumns = {
  id: changelogEntries.id,
  title: changelogEntries.title,
  body: changelogEntries.body,
  publishedAt: changelogEntries.publishedAt,
};

/** Staff's list: every entry, scheduled ones too, newest publication first. */
export async function listEntries(
  db: DbOrTx,
  tenantId: number,
  filter: { keyword?: string },
  page: { page: number; limit: number },
) {
  const pattern = filter.keyword ? containing(filter.keyword) : undefined;
  const where = and(
    eq(changelogEntries.tenantId, tenantId),
    pattern ? or(ilike(changelogEntries.title, pattern), ilike(changelogEntries.body, pattern)) : undefined,
  );
  const [list, [total]] = await Promise.all([
    db
      .select({ ...entryColumns, updatedAt: changelogEntries.updatedAt })
      .from(changelogEntries)
      .where(where)
      .orderBy(desc(changelogEntries.publishedAt), desc(changelogEntries.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(changelogEntries).where(where),
  ]);
  return { list, total: total?.n ?? 0 };
}

/** Creates an entry, or changes one of this tenant's; false when the id is not one of them. */
export async function saveEntry(
  db: DbOrTx,
  tenantId: number,
  staffId: number,
  input: ChangelogInput & { id?: number },
): Promise<number | null> {
  const values = { title: input.title, body: input.body, publishedAt: input.publishedAt };
  if (input.id) {
    const [row] = await db
      .update(changelogEntries)
      .set(values)
      .where(and(eq(changelogEntries.tenantId, tenantId), eq(changelogEntries.id, input.id)))
      .returning({ id: changelogEntries.id });
    return row?.id ?? null;
  }
  const [row] = await db
    .insert(changelogEntries)
    .values({ tenantId, createdBy: staffId, ...values })
    .returning({ id: changelogEntries.id });
  return row?.id ?? null;
}

export async function deleteEntry(db: DbOrTx, tenantId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(changelogEntries)
    .where(and(eq(changelogEntries.tenantId, tenantId), eq(changelogEntries.id, id)))
    .returning({ id: changelogEntries.id });
  return rows.length > 0;
}

/**
 * What a user's top bar shows: the entries published by now, newest first, and whether any was
 * published after the user last opened them (a user who never did sees the dot for any entry).
 */
export async function feedFor(db: DbOrTx, tenantId: number, userId: number) {
  const now = new Date();
  const [list, [seen]] = await Promise.all([
    db
      .select(entryColumns)
      .from(changelogEntries)
      .where(and(eq(changelogEntries.tenantId, tenantId), lte(changelogEntries.publishedAt, now)))
      .orderBy(desc(changelogEntries.publishedAt), desc(changelogEntries.id))
      .limit(FEED_SIZE),
    db
      .select({ seenAt: changelogReads.seenAt })
      .from(changelogReads)
      .where(and(eq(changelogReads.tenantId, tenantId), eq(changelogReads.userId, userId))),
  ]);
  const newest = list[0]?.publishedAt;
  const unread = newest !== undefined && (!seen || newest > seen.seenAt);
  return { list, unread };
}

/** The user opened the feature updates now: everything published so far is read. */
export async function markSeen(db: DbOrTx, tenantId: number, userId: number): Promise<void> {
  const seenAt = new Date();
  await db
    .insert(changelogReads)
    .values({ tenantId, userId, seenAt })
    .onConflictDoUpdate({ target: [changelogReads.tenantId, changelogReads.userId], set: { seenAt } });
}
