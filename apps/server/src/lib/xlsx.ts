import type { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { ResultCode } from '@freight/contracts/api';
import type ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { zipSync } from 'fflate';
import { AppError, badField } from './errors.ts';
import { excel } from './lazy-packages.ts';
import { unpackZip, type ZipEntries, type ZipLimits, ZipRefused } from './zip.ts';

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
 * An upload's archive unpacked under `WORKBOOK_LIMITS`, or null when it is no archive (damaged). A file
 * that would unpack past a limit is refused naming `file` and the limit.
 */
async function unpackWorkbook(buffer: Buffer): Promise<ZipEntries | null> {
  try {
    return await unpackZip(buffer, WORKBOOK_LIMITS);
  } catch (error) {
    if (!(error instanceof ZipRefused)) throw error;
    const refusal = refusalError(error);
    if (refusal) throw refusal;
    return null;
  }
}

/**
 * Loads an xlsx file; null when it is not one (wrong type, damaged). A file that would unpack past
 * `WORKBOOK_LIMITS` is refused naming `file` and the limit. The archive is unpacked once under the
 * limits and handed to the parser stored (not compressed), so the parser inflates nothing itself.
 * It builds every cell of every sheet: for small files (tariffs, channels); the batch imports read
 * their sheet row by row with `readSheetRows`.
 */
export async function readWorkbook(buffer: Buffer): Promise<ExcelJS.Workbook | null> {
  if (!looksLikeXlsx(buffer)) return null;
  return inTurn(async () => {
    const entries = await unpackWorkbook(buffer);
    if (!entries) return null;
    const stored = zipSync(Object.fromEntries(entries), { level: 0 });
    const workbook = new (excel().Workbook)();
    try {
      await workbook.xlsx.load(Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength) as never);
      return workbook;
    } catch {
      return null;
    }
  });
}

/** What `readSheetRows` read: the sheet's name (null when the workbook has none), and whether `visit` stopped it. */
export interface SheetRead {
  sheet: string | null;
  stopped: boolean;
}

/** `visit` answers 'stop' once it needs no more rows (the file is refused whole): the rest is not read. */
export type RowVisitor = (row: ExcelJS.Row) => 'stop' | undefined;

/**
 * The parts the streaming reader reads before any sheet, in that order: with the workbook's names and
 * shared strings known first, each sheet is read straight from memory (one that came before them
 * would be spilled to a temporary file and read again).
 */
const BEFORE_SHEETS = [
  'xl/_rels/workbook.xml.rels',
  'xl/workbook.xml',
  'xl/sharedStrings.xml',
  'xl/styles.xml',
];
const WORKSHEET_PART = /^xl\/worksheets\/sheet\d+\.xml$/;
/** A workbook of inline strings only has no shared strings part; an empty one keeps its sheet in memory. */
const NO_SHARED_STRINGS = new TextEncoder().encode(
  '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>',
);
/** Rows read between turns given to the rest of the process. */
const YIELD_ROWS = 200;
/** The stored archive goes to the reader in pieces, as an upload would arrive, not as one chunk. */
const PIECE_BYTES = 64 * 1024;

/**
 * The stored archive in pieces, each cut where no character's UTF-8 bytes straddle the cut: the reader
 * decodes each piece of a part as text by itself, and would garble a character split between two.
 */
function* piecesOf(archive: Buffer): Generator<Buffer> {
  let at = 0;
  while (at < archive.length) {
    let end = Math.min(at + PIECE_BYTES, archive.length);
    // A continuation byte (10xxxxxx) belongs to the character before it.
    while (end < archive.length && ((archive[end] as number) & 0xc0) === 0x80) end++;
    yield archive.subarray(at, end);
    at = end;
  }
}

/** What the streaming reader knows of the workbook once its own parts are read (not in its typings). */
interface ReaderBook {
  model?: { sheets?: { name: string; rId: string }[] };
  workbookRels?: { Id: string; Target: string }[];
}

/**
 * The unpacked parts the row reader needs, stored (not compressed) in the order it reads them; null
 * when the archive has no workbook in it, which reads as a workbook without sheets.
 */
function readerArchive(entries: ZipEntries): Buffer | null {
  if (!entries.has('xl/workbook.xml') || !entries.has('xl/_rels/workbook.xml.rels')) return null;
  const parts: Record<string, Uint8Array> = {};
  for (const name of BEFORE_SHEETS) {
    const part = entries.get(name);
    if (part) parts[name] = part;
  }
  parts['xl/sharedStrings.xml'] ??= NO_SHARED_STRINGS;
  for (const [name, part] of entries) if (WORKSHEET_PART.test(name)) parts[name] = part;
  const stored = zipSync(parts, { level: 0 });
  return Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
}

/** The first sheet in the workbook's order whose part the archive holds, as the whole-workbook loader picks it. */
function firstSheet(book: ReaderBook, names: ReadonlySet<string>): { name: string; part: string } | null {
  for (const sheet of book.model?.sheets ?? []) {
    const target = book.workbookRels?.find((rel) => rel.Id === sheet.rId)?.Target;
    // A target may be written from the archive's root (`/xl/worksheets/sheet1.xml`).
    const part = target === undefined ? '' : `xl/${target.replace(/^(\s|\/xl\/)+/, '')}`;
    if (names.has(part)) return { name: sheet.name, part };
  }
  return null;
}

/** Whether a sheet's XML ends with its closing tag (any namespace prefix), trailing spaces aside. */
function endsClosed(part: Uint8Array | undefined): boolean {
  if (!part) return false;
  const tail = Buffer.from(part.subarray(Math.max(0, part.length - 64))).toString('latin1');
  return /<\/([A-Za-z_][\w.-]*:)?worksheet>\s*$/.test(tail);
}

/** Thrown through the reader by `visit`, so the visitor's own failure is not taken for a damaged file. */
class VisitFailed extends Error {
  constructor(readonly failure: unknown) {
    super('row visitor failed');
  }
}

/**
 * Reads the first sheet of an xlsx file row by row with exceljs's streaming reader, handing `visit`
 * each row the sheet holds (empty ones too) in the sheet's order, its number as the spreadsheet shows
 * it; only that row's cells are held at a time, whatever the sheet's size. Cells read as the whole
 * workbook's loader reads them (shared strings resolved, rich text as its runs, formulas as formulas,
 * dates as dates), so `importValue` judges them alike; a hyperlink cell is its text. Null when the file
 * is not a workbook (wrong type, damaged, a sheet's XML broken before `visit` stopped). The archive is
 * judged and unpacked under `WORKBOOK_LIMITS` first, and the reading takes its turn with the loads.
 */
export async function readSheetRows(buffer: Buffer, visit: RowVisitor): Promise<SheetRead | null> {
  if (!looksLikeXlsx(buffer)) return null;
  return inTurn(async () => {
    const entries = await unpackWorkbook(buffer);
    if (!entries) return null;
    const names = new Set([...entries.keys()].filter((name) => WORKSHEET_PART.test(name)));
    // The streaming reader takes a sheet cut off before its end for a shorter sheet; a file read to
    // its end must close the sheet it read, or it is damaged and imports nothing.
    const closed = new Set([...names].filter((name) => endsClosed(entries.get(name))));
    const archive = readerArchive(entries);
    if (!archive) return { sheet: null, stopped: false };
    // The unpacked parts are in the stored archive now; the map is let go before the reading starts.
    entries.clear();
    const source = Readable.from(piecesOf(archive));
    const reader = new (excel().stream.xlsx.WorkbookReader)(source, { styles: 'cache', entries: 'emit' });
    // The reader names each sheet's part only in the event it sends just before handing the sheet over.
    let part = '';
    (reader as unknown as EventEmitter).on('entry', (entry: { type: string; id?: string }) => {
      if (entry.type === 'worksheet') part = `xl/worksheets/sheet${entry.id}.xml`;
    });
    const visitRow = (row: ExcelJS.Row) => {
      try {
        return visit(row);
      } catch (failure) {
        throw new VisitFailed(failure);
      }
    };
    let first: { name: string; part: string } | null | undefined;
    try {
      for await (const worksheet of reader) {
        first ??= firstSheet(reader as unknown as ReaderBook, names);
        if (!first) return { sheet: null, stopped: false };
        if (part !== first.part) continue;
        let rows = 0;
        for await (const row of worksheet) {
          if (visitRow(row) === 'stop') return { sheet: first.name, stopped: true };
          // The reading runs on promises alone, which would hold every other request off until the
          // sheet ends: now and then it lets them have a turn.
          if (++rows % YIELD_ROWS === 0) await new Promise(setImmediate);
        }
        return closed.has(first.part) ? { sheet: first.name, stopped: false } : null;
      }
      return { sheet: first?.name ?? null, stopped: false };
    } catch (error) {
      if (error instanceof VisitFailed) throw error.failure;
      return null;
    } finally {
      source.destroy();
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

/**
 * A workbook with the given sheets, each a bold header row then rows; the file as bytes. `text` marks
 * the columns formatted as text, so a code typed into the file later keeps its leading zeros.
 */
export async function buildWorkbook(
  sheets: {
    name: string;
    header: string[];
    rows: (string | number | null)[][];
    widths?: number[];
    text?: boolean[];
  }[],
): Promise<Buffer> {
  const workbook = new (excel().Workbook)();
  for (const s of sheets) {
    const sheet = workbook.addWorksheet(s.name);
    sheet.addRow(s.header);
    sheet.getRow(1).font = { bold: true };
    s.header.forEach((_, i) => {
      const column = sheet.getColumn(i + 1);
      column.width = s.widths?.[i] ?? 16;
      if (s.text?.[i]) column.numFmt = '@';
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
