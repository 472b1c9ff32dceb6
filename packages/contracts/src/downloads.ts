import { z } from 'zod';
import { pageQuery } from './api.ts';
import { dayField, idField } from './fields.ts';
import { okResponse, pageOf, rawResponse, timestamp, XLSX_TYPE } from './responses.ts';

/**
 * The download centre (`/downloadCenter`): every export the user asked for that was too big to answer
 * at once is written to a file by a job, kept for `EXPORT_KEEP_DAYS`, then swept.
 */
export const DOWNLOAD_STATUSES = ['queued', 'running', 'done', 'failed', 'expired'] as const;
export type DownloadStatus = (typeof DOWNLOAD_STATUSES)[number];

/** An export of at most this many rows is answered at once; a bigger one runs as a job. */
export const EXPORT_AT_ONCE_MAX_ROWS = 2_000;
/** How long a finished file is kept. */
export const EXPORT_KEEP_DAYS = 7;
/** The page every download centre call needs: granted to everyone signed in. */
export const DOWNLOAD_PAGE = '/downloadCenter';

/** The kinds of export (each module's), for the filter and the list's column. */
export const EXPORT_KINDS = [
  'truck-orders',
  'express-waybills',
  'account-details',
  'account-log',
  'account-deductions',
  'operation-log',
  'work-orders',
  'addresses',
  'express-addresses',
  'customers',
  'recharges',
  'invoices',
  'bounce-bills',
  'staff',
  'reports',
] as const;
export type ExportKindName = (typeof EXPORT_KINDS)[number];

export const downloadListQuery = pageQuery.extend({
  status: z.enum(DOWNLOAD_STATUSES).optional(),
  kind: z.enum(EXPORT_KINDS).optional(),
  /** Asked for on or after this day (UTC). */
  from: dayField().optional(),
  /** Asked for on or before this day (UTC). */
  to: dayField().optional(),
});
export type DownloadListQuery = z.infer<typeof downloadListQuery>;

export const downloadIdBody = z.object({ id: idField() });

/** Marks the user's ready files seen (the top bar's count drops); every one when `ids` is left out. */
export const downloadSeenBody = z.object({ ids: z.array(idField()).max(200).optional() });

/* ----- responses ----- */

export const downloadView = z.object({
  id: z.number().int(),
  kind: z.enum(EXPORT_KINDS),
  title: z.string(),
  status: z.enum(DOWNLOAD_STATUSES),
  /** Rows written so far, and how many the export will have (null until it has counted). */
  rowsDone: z.number().int(),
  rowsTotal: z.number().int().nullable(),
  sizeBytes: z.number().int(),
  error: z.string(),
  seen: z.boolean(),
  createdAt: timestamp,
  finishedAt: timestamp.nullable(),
  expiresAt: timestamp.nullable(),
});
export const downloadListView = pageOf(downloadView).extend({
  /** Exports of the user still waiting or running: the page polls while there are any. */
  active: z.number().int(),
});

/** The top bar's badge: ready files the user has not seen, and exports still being written. */
export const downloadCountView = z.object({ ready: z.number().int(), active: z.number().int() });

/**
 * What an export call answers when its rows are too many to answer at once: the file is being written
 * in the download centre, under this id.
 */
export const exportQueuedView = z.object({ queued: z.literal(true), id: z.number().int() });

/**
 * An export call's answer: the .xlsx when the rows are few enough to answer at once, else the envelope
 * with `exportQueuedView` (the file is being written in the download centre).
 */
const xlsxAnswer = rawResponse(
  XLSX_TYPE,
  'An .xlsx workbook; or, when the export is queued for the download centre, the envelope with { queued: true, id }',
);
export const exportResponse = {
  ...xlsxAnswer,
  content: { ...xlsxAnswer.content, 'application/json': { schema: okResponse(exportQueuedView) } },
};
