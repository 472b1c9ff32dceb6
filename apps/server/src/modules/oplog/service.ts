import { and, count, desc, eq, gte, ilike, lt, ne, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { cappedCount, keysetPages, olderThanRow } from '../../lib/keyset.ts';
import { operationLogs } from './schema.ts';

export type OperationLogEntry = Omit<typeof operationLogs.$inferInsert, 'id' | 'createdAt'>;

export async function writeOperationLog(db: DbOrTx, entry: OperationLogEntry): Promise<void> {
  await db.insert(operationLogs).values(entry);
}

const SECRET_FIELDS = /password|token|code|param|card|secret|credential|apikey/i;

/** A copy of the request body fit for the log: secrets masked, long values cut. */
export function redactBody(body: unknown, depth = 0): unknown {
  if (body == null || depth > 3) return null;
  if (Array.isArray(body)) return body.slice(0, 20).map((v) => redactBody(v, depth + 1));
  if (typeof body === 'object') {
    return Object.fromEntries(
      Object.entries(body as Record<string, unknown>).map(([k, v]) => [
        k,
        SECRET_FIELDS.test(k) ? '***' : redactBody(v, depth + 1),
      ]),
    );
  }
  if (typeof body === 'string') return body.length > 200 ? `${body.slice(0, 200)}…` : body;
  return body;
}

export interface OperationLogFilter {
  keyword?: string;
  action?: string;
  from?: Date;
  to?: Date;
  result?: 'success' | 'failure';
}

function where(tenantId: number, f: OperationLogFilter): SQL | undefined {
  return and(
    eq(operationLogs.tenantId, tenantId),
    f.keyword
      ? or(
          ilike(operationLogs.userEmail, `%${f.keyword}%`),
          ilike(operationLogs.target, `%${f.keyword}%`),
          ilike(operationLogs.path, `%${f.keyword}%`),
        )
      : undefined,
    f.action ? eq(operationLogs.action, f.action) : undefined,
    f.from ? gte(operationLogs.createdAt, f.from) : undefined,
    f.to ? lt(operationLogs.createdAt, f.to) : undefined,
    f.result === 'success' ? eq(operationLogs.resultCode, 200) : undefined,
    f.result === 'failure' ? ne(operationLogs.resultCode, 200) : undefined,
  );
}

export async function listOperationLogs(
  db: DbOrTx,
  tenantId: number,
  filter: OperationLogFilter,
  page: { page: number; limit: number },
) {
  const condition = where(tenantId, filter);
  const [list, [total]] = await Promise.all([
    db
      .select()
      .from(operationLogs)
      .where(condition)
      .orderBy(desc(operationLogs.createdAt), desc(operationLogs.id))
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    db.select({ n: count() }).from(operationLogs).where(condition),
  ]);
  return { list, total: total?.n ?? 0, ...page };
}

/** The log of a filter for an export, newest first, a keyset page at a time, and its count up to a cap. */
export function operationLogExportRows(db: DbOrTx, tenantId: number, filter: OperationLogFilter) {
  const condition = where(tenantId, filter);
  return {
    count: (cap: number) => cappedCount(db, operationLogs, condition, cap),
    pages: (size: number) =>
      keysetPages<typeof operationLogs.$inferSelect>(size, (after, limit) =>
        db
          .select()
          .from(operationLogs)
          .where(and(condition, after ? olderThanRow(operationLogs, tenantId, after.id) : undefined))
          .orderBy(desc(operationLogs.createdAt), desc(operationLogs.id))
          .limit(limit),
      ),
  };
}
