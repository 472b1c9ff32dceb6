import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Language } from '@freight/contracts/api';
import type { DownloadListQuery, DownloadStatus, ExportKindName } from '@freight/contracts/downloads';
import { and, count, desc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { type BatchOptions, DELETE_BATCH } from '../../lib/batched-delete.ts';
import { conflict, notFound, tooMany } from '../../lib/errors.ts';
import { type ExportFileRow, exportFiles } from './schema.ts';

export type { ExportFileRow };

interface Owner {
  tenantId: number;
  id: number;
}

const ACTIVE: DownloadStatus[] = ['queued', 'running'];

/**
 * Exports one user may have queued or running at once: the queue takes users in turn, and this keeps
 * one user's pile of them short as well.
 */
export const MAX_EXPORTS_WAITING_PER_USER = 3;

export async function createExportFile(
  db: DbOrTx,
  values: {
    tenantId: number;
    userId: number;
    kind: ExportKindName;
    title: string;
    params: Record<string, unknown>;
    language: Language;
  },
  /** Exports the user may have waiting: the cap times the limits' scale (tests raise it). */
  maxWaiting = MAX_EXPORTS_WAITING_PER_USER,
): Promise<ExportFileRow> {
  return db.transaction(async (tx) => {
    // One user's requests are counted one at a time, so a burst cannot all pass the count together.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('export-files'), ${values.userId}::int)`);
    const [waiting] = await tx
      .select({ n: count() })
      .from(exportFiles)
      .where(
        and(
          eq(exportFiles.tenantId, values.tenantId),
          eq(exportFiles.userId, values.userId),
          inArray(exportFiles.status, ACTIVE),
        ),
      );
    if ((waiting?.n ?? 0) >= maxWaiting) throw tooMany('download.tooManyWaiting', { max: maxWaiting });
    const [row] = await tx.insert(exportFiles).values(values).returning();
    if (!row) throw new Error('export file not created');
    return row;
  });
}

export async function findExportFile(db: DbOrTx, tenantId: number, id: number) {
  const [row] = await db
    .select()
    .from(exportFiles)
    .where(and(eq(exportFiles.tenantId, tenantId), eq(exportFiles.id, id)))
    .limit(1);
  return row ?? null;
}

const one = (tenantId: number, id: number) => and(eq(exportFiles.tenantId, tenantId), eq(exportFiles.id, id));

export async function markExportQueued(db: DbOrTx, tenantId: number, id: number, jobId: string) {
  await db.update(exportFiles).set({ jobId }).where(one(tenantId, id));
}

export async function markExportStarted(db: DbOrTx, tenantId: number, id: number, total: number) {
  await db
    .update(exportFiles)
    .set({ status: 'running', rowsTotal: total, rowsDone: 0, startedAt: new Date() })
    .where(and(one(tenantId, id), inArray(exportFiles.status, ACTIVE)));
}

/** Notes the rows written; false when the file is no longer wanted (deleted meanwhile). */
export async function markExportProgress(db: DbOrTx, tenantId: number, id: number, rowsDone: number) {
  const updated = await db
    .update(exportFiles)
    .set({ rowsDone })
    .where(and(one(tenantId, id), eq(exportFiles.status, 'running')))
    .returning({ id: exportFiles.id });
  return updated.length > 0;
}

/** The file is whole; false when the row went away meanwhile (the file is then removed). */
export async function markExportFinished(
  db: DbOrTx,
  tenantId: number,
  id: number,
  file: { rows: number; sizeBytes: number; filePath: string; expiresAt: Date },
) {
  const updated = await db
    .update(exportFiles)
    .set({
      status: 'done',
      rowsDone: file.rows,
      rowsTotal: file.rows,
      sizeBytes: file.sizeBytes,
      filePath: file.filePath,
      expiresAt: file.expiresAt,
      finishedAt: new Date(),
      error: '',
      seen: false,
    })
    .where(and(one(tenantId, id), eq(exportFiles.status, 'running')))
    .returning({ id: exportFiles.id });
  return updated.length > 0;
}

/** A try failed: the last one leaves the export failed (the user may retry it); others wait for the next. */
export async function markExportFailed(
  db: DbOrTx,
  tenantId: number,
  id: number,
  error: string,
  last: boolean,
) {
  await db
    .update(exportFiles)
    .set(
      last
        ? { status: 'failed', error, finishedAt: new Date(), seen: false }
        : { status: 'queued', error, rowsDone: 0 },
    )
    .where(and(one(tenantId, id), inArray(exportFiles.status, ACTIVE)));
}

/** The user's own export, or 404: another user's (or tenant's) export is never found. */
export async function ownExportFile(db: DbOrTx, owner: Owner, id: number): Promise<ExportFileRow> {
  const [row] = await db
    .select()
    .from(exportFiles)
    .where(and(one(owner.tenantId, id), eq(exportFiles.userId, owner.id)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

const dayStart = (day: string) => new Date(`${day}T00:00:00Z`);
const nextDay = (day: string) => new Date(dayStart(day).getTime() + 24 * 60 * 60 * 1000);

export async function listExportFiles(db: DbOrTx, owner: Owner, query: DownloadListQuery) {
  const mine = and(eq(exportFiles.tenantId, owner.tenantId), eq(exportFiles.userId, owner.id));
  const condition = and(
    mine,
    query.status ? eq(exportFiles.status, query.status) : undefined,
    query.kind ? eq(exportFiles.kind, query.kind) : undefined,
    query.from ? gte(exportFiles.createdAt, dayStart(query.from)) : undefined,
    query.to ? lt(exportFiles.createdAt, nextDay(query.to)) : undefined,
  );
  const [rows, [total], [active]] = await Promise.all([
    db
      .select()
      .from(exportFiles)
      .where(condition)
      .orderBy(desc(exportFiles.createdAt), desc(exportFiles.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(exportFiles).where(condition),
    db
      .select({ n: count() })
      .from(exportFiles)
      .where(and(mine, inArray(exportFiles.status, ACTIVE))),
  ]);
  return {
    list: rows.map(present),
    total: total?.n ?? 0,
    page: query.page,
    limit: query.limit,
    active: active?.n ?? 0,
  };
}

export function present(row: ExportFileRow) {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    status: row.status,
    rowsDone: row.rowsDone,
    rowsTotal: row.rowsTotal,
    sizeBytes: row.sizeBytes,
    error: row.error,
    seen: row.seen,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
    expiresAt: row.expiresAt,
  };
}

/** Ready files not seen yet (the top bar's badge) and exports still being written. */
export async function countExportFiles(db: DbOrTx, owner: Owner) {
  const [row] = await db
    .select({
      ready: sql<number>`count(*) filter (where ${exportFiles.status} = 'done' and not ${exportFiles.seen})::int`,
      active: sql<number>`count(*) filter (where ${exportFiles.status} in ('queued', 'running'))::int`,
    })
    .from(exportFiles)
    .where(and(eq(exportFiles.tenantId, owner.tenantId), eq(exportFiles.userId, owner.id)));
  return { ready: row?.ready ?? 0, active: row?.active ?? 0 };
}

export async function markExportsSeen(db: DbOrTx, owner: Owner, ids?: number[]) {
  await db
    .update(exportFiles)
    .set({ seen: true })
    .where(
      and(
        eq(exportFiles.tenantId, owner.tenantId),
        eq(exportFiles.userId, owner.id),
        eq(exportFiles.seen, false),
        ids ? inArray(exportFiles.id, ids) : undefined,
      ),
    );
}

/** A failed or expired export is asked for again: back to the queue, as new. */
export async function resetExportFile(db: DbOrTx, owner: Owner, id: number): Promise<ExportFileRow> {
  const row = await ownExportFile(db, owner, id);
  if (row.status !== 'failed' && row.status !== 'expired') throw conflict('download.notRetryable');
  const [reset] = await db
    .update(exportFiles)
    .set({
      status: 'queued',
      rowsDone: 0,
      rowsTotal: null,
      sizeBytes: 0,
      filePath: '',
      error: '',
      seen: false,
      startedAt: null,
      finishedAt: null,
      expiresAt: null,
      createdAt: new Date(),
    })
    .where(and(one(owner.tenantId, id), inArray(exportFiles.status, ['failed', 'expired'])))
    .returning();
  if (!reset) throw conflict('download.notRetryable');
  return reset;
}

/** Deletes the user's export and its file (a job still writing it stops at its next page). */
export async function deleteExportFile(db: DbOrTx, dataDir: string, owner: Owner, id: number) {
  const row = await ownExportFile(db, owner, id);
  await db.delete(exportFiles).where(one(owner.tenantId, id));
  if (row.filePath) await rm(join(resolve(dataDir), row.filePath), { force: true });
}

/** The file on disk of a finished export of the user's; 404 when it is not (or no longer) there. */
export async function readyExportFile(db: DbOrTx, dataDir: string, owner: Owner, id: number) {
  const row = await ownExportFile(db, owner, id);
  if (row.status !== 'done' || !row.filePath) throw notFound('download.notReady');
  return { row, path: join(resolve(dataDir), row.filePath) };
}

/**
 * Housekeeping: files past their keeping time are removed and their rows marked expired (the user may
 * ask for them again). A bounded batch at a time.
 */
export async function sweepExpiredExports(
  db: DbOrTx,
  dataDir: string,
  options: BatchOptions & { now?: Date } = {},
): Promise<number> {
  const batch = options.batch ?? DELETE_BATCH;
  const now = options.now ?? new Date();
  const stale = and(eq(exportFiles.status, 'done'), lt(exportFiles.expiresAt, now));
  let total = 0;
  while (!options.signal?.aborted) {
    const due = await db
      .select({ tenantId: exportFiles.tenantId, id: exportFiles.id, filePath: exportFiles.filePath })
      .from(exportFiles)
      .where(stale)
      .limit(batch);
    for (const row of due) {
      const [gone] = await db
        .update(exportFiles)
        .set({ status: 'expired', filePath: '', sizeBytes: 0 })
        .where(and(one(row.tenantId, row.id), stale))
        .returning({ id: exportFiles.id });
      if (!gone) continue;
      // The row says expired first: a row that says done never lacks its file.
      if (row.filePath) await rm(join(resolve(dataDir), row.filePath), { force: true });
      total++;
    }
    if (due.length < batch) break;
  }
  return total;
}
