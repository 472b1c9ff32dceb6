import { ResultCode } from '@freight/contracts/api';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { zipSync } from 'fflate';
import { AppError, badField } from './errors.ts';
import { unpackZip, type ZipLimits, ZipRefused } from './zip.ts';

/** A workbook file starts as a zip archive; anything else is refused before the parser sees it. */
export function looksLikeXlsx(buffer: Buffer): boolean {
  return buffer.length > 4 && buffer.readUInt32LE(0) === 0x04034b50;
}

/**
 * What an uploaded workbook may unpack to. The largest file the imports take (10,000 rows of 30 wide
 * text columns) unpacks to about 21 MB at about 12 to 1; a workbook past these limits is refused
 * from its directory in milliseconds, before anything is inflated.
 */
export const WORKBOOK_LIMITS: ZipLimits = {
  maxEntries: 500,
  maxEntryBytes: 40 * 1024 * 1024,
  maxTotalBytes: 60 * 1024 * 1024,
  maxRatio: 100,
  ratioFloorBytes: 1024 * 1024,
};

/**
 * Workbooks parsed at once in this process, and how many may wait for a turn. Parsing a workbook at
 * the limits takes a few hundred MB for a second or two; the gate keeps the process's growth to a
 * bounded number of those however many files arrive together, and a queue longer than that is a 503.
 */
const PARSING_AT_ONCE = 2;
const WAITING_AT_MOST = 16;
let parsing = 0;
const waiting: (() => void)[] = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (parsing >= PARSING_AT_ONCE) {
    if (waiting.length >= WAITING_AT_MOST) throw new AppError(ResultCode.Unavailable, 'import.busy');
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else parsing++;
  try {
    return await work();
  } finally {
    // The turn passes straight to the next in line, or is given back.
    const next = waiting.shift();
    if (next) next();
    else parsing--;
  }
}

const MB = 1024 * 1024;
function refusalError(refused: ZipRefused): AppError | null {
  const { refusal } = refused;
  switch (refusal.reason) {
    case 'damaged':
      return null;
    case 'entries':
      return badField('file', 'import.tooManyParts', { limit: refusal.limit });
    case 'entrySize':
    case 'totalSize':
      return badField('file', 'import.unpacksTooLarge', { limit: Math.round(refusal.limit / MB) });
    case 'ratio':
      return badField('file', 'import.compressedTooFar', { limit: refusal.limit });
  }
}

/**
 * Loads an xlsx file; null when it is not one (wrong type, damaged). A file that would unpack past
 * `WORKBOOK_LIMITS` is refused naming `file` and the limit. The archive is unpacked once under the
 * limits and handed to the parser stored (not compressed), so the parser inflates nothing itself.
 */
export async function readWorkbook(buffer: Buffer): Promise<ExcelJS.Workbook | null> {
  if (!looksLikeXlsx(buffer)) return null;
  return inTurn(async () => {
    let stored: Uint8Array;
    try {
      const entries = await unpackZip(buffer, WORKBOOK_LIMITS);
      stored = zipSync(Object.fromEntries(entries), { level: 0 });
    } catch (error) {
      if (!(error instanceof ZipRefused)) throw error;
      const refusal = refusalError(error);
      if (refusal) throw refusal;
      return null;
    }
    const workbook = new ExcelJS.Workbook();
    try {
      await workbook.xlsx.load(Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength) as never);
      return workbook;
    } catch {
      return null;
    }
  });
}

/** A cell as an import reads it: plain text or number, or why it cannot be taken as it is. */
export type ImportCell =
  | { ok: true; value: string | number | boolean | null }
  | { ok: false; reason: 'formula' | 'date' | 'unsupported' };

export function importCell(cell: ExcelJS.Cell): ImportCell {
  return importValue(cell.value);
}

/** A cell's value as an import reads it; for a row's values read at once (`row.values`). */
export function importValue(value: ExcelJS.CellValue | undefined): ImportCell {
  if (value === null || value === undefined || value === '') return { ok: true, value: null };
  if (typeof value === 'string') return { ok: true, value: value.trim() === '' ? null : value.trim() };
  if (typeof value === 'number' || typeof value === 'boolean') return { ok: true, value };
  // Imports take what the sheet shows, never a formula whose result the file may not hold.
  if (value instanceof Date) return { ok: false, reason: 'date' };
  if (typeof value === 'object' && ('formula' in value || 'sharedFormula' in value))
    return { ok: false, reason: 'formula' };
  if (typeof value === 'object' && 'richText' in value)
    return {
      ok: true,
      value:
        value.richText
          .map((r) => r.text)
          .join('')
          .trim() || null,
    };
  if (typeof value === 'object' && 'text' in value && typeof value.text === 'string')
    return { ok: true, value: value.text.trim() || null };
  return { ok: false, reason: 'unsupported' };
}

/** A workbook with the given sheets, each a bold header row then rows; the file as bytes. */
export async function buildWorkbook(
  sheets: { name: string; header: string[]; rows: (string | number | null)[][]; widths?: number[] }[],
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const s of sheets) {
    const sheet = workbook.addWorksheet(s.name);
    sheet.addRow(s.header);
    sheet.getRow(1).font = { bold: true };
    s.header.forEach((_, i) => {
      sheet.getColumn(i + 1).width = s.widths?.[i] ?? 16;
    });
    for (const row of s.rows) sheet.addRow(row);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export function sendFile(reply: FastifyReply, filename: string, buffer: Buffer) {
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`)
    .send(buffer);
}
