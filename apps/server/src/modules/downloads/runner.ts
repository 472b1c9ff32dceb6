import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { setImmediate as yieldToRequests } from 'node:timers/promises';
import type { Language } from '@freight/contracts/api';
import { EXPORT_KEEP_DAYS, type ExportKindName } from '@freight/contracts/downloads';
import { translate } from '@freight/contracts/messages';
import { isMoneyString, parseMoney } from '@freight/contracts/money';
import { XLSX_TYPE } from '@freight/contracts/responses';
import type ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { excel } from '../../lib/lazy-packages.ts';
import { currentUser, type RequestUser, requestUserOf } from '../../plugins/context.ts';
import { findUser } from '../auth/service.ts';
import { grantsForUser } from '../roles/service.ts';
import {
  createExportFile,
  type ExportFileRow,
  findExportFile,
  MAX_EXPORTS_WAITING_PER_USER,
  markExportFailed,
  markExportFinished,
  markExportProgress,
  markExportQueued,
  markExportStarted,
} from './service.ts';

/**
 * How a column's cells are written. `money`: an amount (cents as bigint, or the API's decimal string)
 * becomes a number of the currency with two places, so the sheet can sum it. `time` and `date`: an
 * instant (Date or ISO text) becomes a real date-time cell showing the wall-clock time of the caller's
 * time zone, as the page shows it. `text` (the default): the value as it is.
 */
export type ExportCellType = 'text' | 'money' | 'time' | 'date';

/** One column of an export: its header (already in the user's language) and how a row fills it. */
export interface ExportColumn<R> {
  header: string;
  width?: number;
  type?: ExportCellType;
  /** The number format of a typed column, when its page shows it otherwise (seconds, say). */
  format?: string;
  value: (row: R) => string | number | bigint | boolean | Date | null | undefined;
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

/** Where a queued export keeps the caller's time zone, beside the list's filters it was asked with. */
const TIME_ZONE_PARAM = '__timeZone';

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
  const timeZone = timeZoneOf(request);
  const source = await kind.source(app.database.reader, user, params, language);
  const atOnce = app.config.EXPORT_AT_ONCE_ROWS;
  const total = await source.count(atOnce + 1);
  if (total <= atOnce) {
    const workbook = new (excel().Workbook)();
    const sheet = workbook.addWorksheet('Sheet1');
    startSheet(sheet, source.columns);
    const cells = cellWriter(source.columns, timeZone);
    for await (const page of source.pages(EXPORT_PAGE_ROWS)) for (const row of page) cells(sheet, row);
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    return reply
      .header('content-type', XLSX_TYPE)
      .header(
        'content-disposition',
        `attachment; filename*=UTF-8''${encodeURIComponent(kind.attachmentName?.(params, language) ?? kind.fileName[language])}`,
      )
      .send(buffer);
  }
  const row = await createExportFile(
    app.db,
    {
      tenantId: user.tenantId,
      userId: user.id,
      kind: kind.name,
      title: exportTitle(kind.name, language, new Date(), timeZone),
      // As the route received it after validation; read with the same schema again when the job runs.
      params: {
        ...(JSON.parse(JSON.stringify(params ?? {})) as Record<string, unknown>),
        [TIME_ZONE_PARAM]: timeZone,
      },
      language,
    },
    MAX_EXPORTS_WAITING_PER_USER * app.config.RATE_LIMIT_SCALE,
  );
  await queueExport(app, row);
  return reply.type('application/json; charset=utf-8').send({
    code: 200,
    msg: translate(language, 'download.queued'),
    data: { queued: true, id: row.id },
  });
}

export function exportTitle(kind: ExportKindName, language: Language, at: Date, timeZone = 'UTC'): string {
  // The time the user asked, on their own clock, as the download centre's other times show.
  const when = wallClock(at, timeZone).toISOString().slice(0, 16).replace('T', ' ');
  return `${translate(language, `download.kind.${kind}`)} ${when}`;
}

/** Sends the job that writes the file, and notes it on the row. */
export async function queueExport(app: FastifyInstance, row: ExportFileRow) {
  const jobId = await app.jobs.send(
    EXPORT_QUEUE,
    { exportId: row.id },
    // A database hiccup is tried again after a while; the third failure is the user's to retry.
    // Taken in turn with other users' and tenants' exports (jobs/queue.ts).
    {
      tenantId: row.tenantId,
      userId: row.userId,
      retryLimit: 2,
      retryDelaySeconds: 5,
      expireInSeconds: 60 * 60,
    },
  );
  await markExportQueued(app.db, row.tenantId, row.id, jobId);
}

/** The caller's IANA time zone: the web app sends its own on every call; without one, UTC. */
export function timeZoneOf(request: FastifyRequest): string {
  const header = request.headers['x-time-zone'];
  return validTimeZone(typeof header === 'string' ? header : undefined) ?? 'UTC';
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

function zoneFormat(timeZone: string): Intl.DateTimeFormat | null {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      return null;
    }
    // A bounded cache: the names come from clients.
    if (zoneFormats.size < 500) zoneFormats.set(timeZone, format);
  }
  return format;
}

export function validTimeZone(name: string | undefined): string | null {
  if (!name || name.length > 64) return null;
  return zoneFormat(name) ? name : null;
}

/**
 * The wall-clock time of `at` in `timeZone`, as a Date whose UTC fields carry it: Excel date-times have
 * no zone, and exceljs writes a Date's UTC fields, so the cell shows what the page shows there.
 */
export function wallClock(at: Date, timeZone: string): Date {
  const format = zoneFormat(timeZone);
  if (!format) return at;
  const part: Record<string, number> = {};
  for (const p of format.formatToParts(at)) if (p.type !== 'literal') part[p.type] = Number(p.value);
  return new Date(
    Date.UTC(
      part.year ?? 1970,
      (part.month ?? 1) - 1,
      part.day ?? 1,
      part.hour ?? 0,
      part.minute ?? 0,
      part.second ?? 0,
      at.getUTCMilliseconds(),
    ),
  );
}

/** The number formats of typed cells: as the pages show them (no thousands separator, "YYYY-MM-DD HH:mm"). */
const NUMBER_FORMATS: Record<Exclude<ExportCellType, 'text'>, string> = {
  money: '0.00',
  time: 'yyyy-mm-dd hh:mm',
  date: 'yyyy-mm-dd',
};

type Cell = string | number | boolean | Date | null;

/** A column's value as its cell holds it. */
export function exportCell(
  type: ExportCellType,
  value: ReturnType<ExportColumn<unknown>['value']>,
  timeZone: string,
): Cell {
  if (value === null || value === undefined || value === '') return null;
  if (type === 'money') {
    // Cents to a number of the currency: cents / 100 is the double nearest the exact amount.
    if (typeof value === 'bigint') return Number(value) / 100;
    if (typeof value === 'string' && isMoneyString(value)) return Number(parseMoney(value)) / 100;
  }
  if (type === 'time' || type === 'date') {
    const at = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null;
    if (at && !Number.isNaN(at.getTime())) return wallClock(at, timeZone);
  }
  return typeof value === 'bigint' ? value.toString() : value;
}

/** Adds a row of the export to the sheet, each typed cell with its number format; the row, to commit. */
function cellWriter(columns: ExportColumn<unknown>[], timeZone: string) {
  return (sheet: ExcelJS.Worksheet, item: unknown) => {
    const row = sheet.addRow(columns.map((c) => exportCell(c.type ?? 'text', c.value(item), timeZone)));
    columns.forEach((c, i) => {
      if (c.type && c.type !== 'text') row.getCell(i + 1).numFmt = c.format ?? NUMBER_FORMATS[c.type];
    });
    return row;
  };
}

/** A column's width unless it says otherwise: a time fits "YYYY-MM-DD HH:mm". */
const defaultWidth = (c: ExportColumn<unknown>) => (c.type === 'time' ? 18 : 20);

function startSheet(sheet: ExcelJS.Worksheet, columns: ExportColumn<unknown>[]) {
  sheet.columns = columns.map((c, i) => ({
    header: c.header,
    key: String(i),
    width: c.width ?? defaultWidth(c),
  }));
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
    const { [TIME_ZONE_PARAM]: zone, ...filters } = row.params;
    const timeZone = validTimeZone(typeof zone === 'string' ? zone : undefined) ?? 'UTC';
    const params = kind.params.parse(filters);
    const source = await kind.source(app.database.reader, user, params, row.language);
    const total = await source.count(Number.MAX_SAFE_INTEGER);
    await markExportStarted(app.db, tenantId, row.id, total);

    await mkdir(dirname(target), { recursive: true });
    const workbook = new (excel().stream.xlsx.WorkbookWriter)({
      filename: partial,
      useStyles: true,
      useSharedStrings: false,
    });
    const sheet = workbook.addWorksheet('Sheet1');
    startSheet(sheet, source.columns);
    sheet.getRow(1).commit();
    const cells = cellWriter(source.columns, timeZone);
    let done = 0;
    for await (const page of source.pages(EXPORT_PAGE_ROWS)) {
      for (const item of page) cells(sheet, item).commit();
      done += page.length;
      // The embedded database answers in the same thread, so a page's queries can follow one another
      // without the event loop ever turning: let the requests waiting meanwhile (the download centre
      // asking for this very progress) have their turn between pages.
      await yieldToRequests();
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
