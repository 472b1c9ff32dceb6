import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Language } from '@freight/contracts/api';
import { EXPORT_KEEP_DAYS, type ExportKindName } from '@freight/contracts/downloads';
import { translate } from '@freight/contracts/messages';
import { XLSX_TYPE } from '@freight/contracts/responses';
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { currentUser, type RequestUser, requestUserOf } from '../../plugins/context.ts';
import { findUser } from '../auth/service.ts';
import { grantsForUser } from '../roles/service.ts';
import {
  createExportFile,
  type ExportFileRow,
  findExportFile,
  markExportFailed,
  markExportFinished,
  markExportProgress,
  markExportQueued,
  markExportStarted,
} from './service.ts';

/** One column of an export: its header (already in the user's language) and how a row fills it. */
export interface ExportColumn<R> {
  header: string;
  width?: number;
  value: (row: R) => string | number | boolean | Date | null;
}

/** The rows of one export, as the module that owns them reads them. */
export interface ExportSource<R> {
  columns: ExportColumn<R>[];
  /** How many rows the export will have, counted no further than `cap`. */
  count(cap: number): Promise<number>;
  /** The rows in the list's order, a page (a keyset page, never an offset) at a time. */
  pages(pageSize: number): AsyncIterable<R[]>;
}

/**
 * An export a module offers (its list's filters as a spreadsheet). The module keeps its own queries:
 * `source` reads through its own service; the download centre only runs it and keeps the file.
 */
export interface ExportKind<P> {
  name: ExportKindName;
  /** The download's file name in each language. */
  fileName: Record<Language, string>;
  /** The name of a file answered at once, when the filters name it (a report's dimension and days). */
  attachmentName?: (params: P, language: Language) => string;
  /** The export call's body schema: a queued export's filters are read with it again when its job runs. */
  params: z.ZodType<P>;
  /** Grants of which the user must still hold one when the job runs (the route's own permission). */
  permission: string | readonly string[];
  /** The rows for this user and these filters; `db` is the reader (the replica when there is one). */
  source(db: Db, user: RequestUser, params: P, language: Language): Promise<ExportSource<unknown>>;
}

/** Rows per keyset page: the file is written a page at a time, so memory stays flat however many there are. */
export const EXPORT_PAGE_ROWS = 2_000;
/** The queue of export jobs. */
export const EXPORT_QUEUE = 'export';

const kinds = new Map<ExportKindName, ExportKind<unknown>>();

/** Declares a module's export; the module calls this when its routes load (once per kind). */
export function defineExport<P>(kind: ExportKind<P>): ExportKind<P> {
  kinds.set(kind.name, kind as ExportKind<unknown>);
  return kind;
}

export function exportKind(name: ExportKindName): ExportKind<unknown> | undefined {
  return kinds.get(name);
}

/**
 * Answers an export call: a small export (up to EXPORT_AT_ONCE_ROWS rows, by default
 * EXPORT_AT_ONCE_MAX_ROWS) as the file at once, as
 * before; a bigger one is queued for the download centre and answered `{ queued: true, id }` in the
 * envelope. The route is `raw` (it answers a file), so the envelope is written here.
 */
export async function answerExport<P>(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: ExportKind<P>,
  params: P,
) {
  const user = currentUser(request);
  const language = request.language;
  const source = await kind.source(app.database.reader, user, params, language);
  const atOnce = app.config.EXPORT_AT_ONCE_ROWS;
  const total = await source.count(atOnce + 1);
  if (total <= atOnce) {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Sheet1');
    startSheet(sheet, source.columns);
    for await (const page of source.pages(EXPORT_PAGE_ROWS))
      for (const row of page) sheet.addRow(source.columns.map((c) => c.value(row)));
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    return reply
      .header('content-type', XLSX_TYPE)
      .header(
        'content-disposition',
        `attachment; filename*=UTF-8''${encodeURIComponent(kind.attachmentName?.(params, language) ?? kind.fileName[language])}`,
      )
      .send(buffer);
  }
  const row = await createExportFile(app.db, {
    tenantId: user.tenantId,
    userId: user.id,
    kind: kind.name,
    title: exportTitle(kind.name, language, new Date()),
    // As the route received it after validation; read with the same schema again when the job runs.
    params: JSON.parse(JSON.stringify(params ?? {})) as Record<string, unknown>,
    language,
  });
  await queueExport(app, row);
  return reply.type('application/json; charset=utf-8').send({
    code: 200,
    msg: translate(language, 'download.queued'),
    data: { queued: true, id: row.id },
  });
}

export function exportTitle(kind: ExportKindName, language: Language, at: Date): string {
  const when = at.toISOString().slice(0, 16).replace('T', ' ');
  return `${translate(language, `download.kind.${kind}`)} ${when}`;
}

/** Sends the job that writes the file, and notes it on the row. */
export async function queueExport(app: FastifyInstance, row: ExportFileRow) {
  const jobId = await app.jobs.send(
    EXPORT_QUEUE,
    { exportId: row.id },
    // A database hiccup is tried again after a while; the third failure is the user's to retry.
    { tenantId: row.tenantId, retryLimit: 2, retryDelaySeconds: 5, expireInSeconds: 60 * 60 },
  );
  await markExportQueued(app.db, row.tenantId, row.id, jobId);
}

function startSheet(sheet: ExcelJS.Worksheet, columns: ExportColumn<unknown>[]) {
  sheet.columns = columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width ?? 20 }));
  sheet.getRow(1).font = { bold: true };
}

/** Where an export's file lives: DATA_DIR/exports/<tenant>/<id>.xlsx. */
export function exportFilePath(row: Pick<ExportFileRow, 'tenantId' | 'id'>) {
  return join('exports', String(row.tenantId), `${row.id}.xlsx`);
}

/** The user the export was asked by, as a request would see them; null when they may no longer sign in. */
async function requester(db: Db, tenantId: number, userId: number): Promise<RequestUser | null> {
  const user = await findUser(db, tenantId, userId);
  if (!user?.enabled) return null;
  // No export belongs to the platform's own pages (tenants), so their grants never matter here.
  const grants = await grantsForUser(db, tenantId, userId, false);
  return requestUserOf(user, grants);
}

class ExportRefused extends Error {}

/**
 * The export job: reads the rows a keyset page at a time from the reader and streams them into the
 * file with exceljs's streaming writer (each row is committed and leaves memory), noting the progress
 * after every page. The file is written under a temporary name and renamed when whole.
 */
export async function runExportJob(
  app: FastifyInstance,
  job: { data: { exportId: number }; tenantId: number | null; retryCount: number },
  retryLimit = 2,
) {
  const tenantId = job.tenantId;
  if (tenantId === null) return;
  const row = await findExportFile(app.db, tenantId, job.data.exportId);
  // Deleted meanwhile, or already written by an earlier try: nothing to do.
  if (!row || row.status === 'done' || row.status === 'expired') return;
  const dataDir = resolve(app.config.DATA_DIR);
  const relative = exportFilePath(row);
  const target = join(dataDir, relative);
  const partial = `${target}.${process.pid}.partial`;
  try {
    const kind = exportKind(row.kind);
    if (!kind) throw new ExportRefused(`unknown export ${row.kind}`);
    const user = await requester(app.db, tenantId, row.userId);
    const needed = typeof kind.permission === 'string' ? [kind.permission] : kind.permission;
    if (!user || !needed.some((key) => user.grants.has(key)))
      throw new ExportRefused(translate(row.language, 'error.forbidden'));
    const params = kind.params.parse(row.params);
    const source = await kind.source(app.database.reader, user, params, row.language);
    const total = await source.count(Number.MAX_SAFE_INTEGER);
    await markExportStarted(app.db, tenantId, row.id, total);

    await mkdir(dirname(target), { recursive: true });
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      filename: partial,
      useStyles: true,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet('Sheet1');
    startSheet(sheet, source.columns);
    sheet.getRow(1).commit();
    let done = 0;
    for await (const page of source.pages(EXPORT_PAGE_ROWS)) {
      for (const item of page) sheet.addRow(source.columns.map((c) => c.value(item))).commit();
      done += page.length;
      // Still wanted? A file deleted while it is written stops at the next page.
      if (!(await markExportProgress(app.db, tenantId, row.id, done))) {
        await workbook.commit().catch(() => {});
        await rm(partial, { force: true });
        return;
      }
    }
    sheet.commit();
    await workbook.commit();
    await rename(partial, target);
    const { size } = await stat(target);
    const expiresAt = new Date(Date.now() + EXPORT_KEEP_DAYS * 24 * 60 * 60 * 1000);
    const kept = await markExportFinished(app.db, tenantId, row.id, {
      rows: done,
      sizeBytes: size,
      filePath: relative,
      expiresAt,
    });
    if (!kept) await rm(target, { force: true });
  } catch (error) {
    await rm(partial, { force: true });
    const last = error instanceof ExportRefused || job.retryCount >= retryLimit;
    const message = error instanceof Error ? error.message : String(error);
    await markExportFailed(app.db, tenantId, row.id, message.slice(0, 500), last);
    if (!last) throw error;
  }
}
