import type { Language } from '@freight/contracts/api';
import { type MessageKey, translate } from '@freight/contracts/messages';
import { localizeIssues } from '@freight/contracts/validation';
import type ExcelJS from 'exceljs';
import type { z } from 'zod';
import { excel } from './lazy-packages.ts';
import { importValue, readSheetRows } from './xlsx.ts';

/**
 * The parts every batch import shares (ARCHITECTURE section 7: the server makes the template in both
 * languages and checks a file row by row): a template of typed columns, a sheet read back into one
 * record of text per row, and a row's validation message that names the column as the sheet shows it.
 */

/** One column of a batch template; the header may come back in either language, in any order. */
export interface SheetColumn {
  key: string;
  zh: string;
  en: string;
  width?: number;
  required?: boolean;
  /** Fixed choices, offered as a dropdown. */
  list?: readonly string[];
  /** The template's example row. */
  example: string | number;
  /** Formatted as text in the template, so leading zeros stay (ZIP codes, phones, numbers of record). */
  text?: boolean;
  /** The example differs per caller (a product list's first entry): the untouched-example test skips it. */
  exampleVaries?: boolean;
  /** A number cell is padded back to this many digits: a ZIP a spreadsheet made 2134 is 02134 again. */
  zeroPad?: number;
  /** A day: a date cell (what a spreadsheet makes of 2026-12-01 typed in) reads as that day, YYYY-MM-DD. */
  date?: boolean;
}

/** The yes and no a template's dropdown offers, in the reader's language. */
export const YES_NO: Record<Language, readonly [string, string]> = {
  'zh-CN': ['是', '否'],
  'en-US': ['yes', 'no'],
};
const YES = new Set(['yes', 'y', 'true', '1', '是', 'x']);
const NO = new Set(['no', 'n', 'false', '0', '否']);

/** A yes-or-no cell in either language: true or false, undefined when empty, null when it is neither. */
export function yesNoCell(text: string): boolean | undefined | null {
  const value = text.trim().toLowerCase();
  if (value === '') return undefined;
  return YES.has(value) ? true : NO.has(value) ? false : null;
}

export const columnLabel = (column: Pick<SheetColumn, 'zh' | 'en'>, language: Language) =>
  language === 'zh-CN' ? column.zh : column.en;

/** How many rows of a template carry the dropdowns. */
const DROPDOWN_ROWS = 1_000;

export interface TemplateSheet {
  language: Language;
  sheetName: string;
  columns: readonly SheetColumn[];
  /** Dropdowns decided per caller (the products it may book), by column key; they replace `list`. */
  lists?: Record<string, readonly string[]>;
  /** Example values decided per caller, by column key. */
  examples?: Record<string, string | number>;
  notesName: string;
  notes: readonly string[];
}

/**
 * A batch template: the header in the caller's language, one grey example row (skipped on import while
 * left as it is), dropdowns for the fixed choices, and a sheet of notes.
 */
export async function templateWorkbook(template: TemplateSheet): Promise<Buffer> {
  const { columns, language } = template;
  const workbook = new (excel().Workbook)();
  const sheet = workbook.addWorksheet(template.sheetName);
  sheet.addRow(columns.map((c) => columnLabel(c, language)));
  sheet.getRow(1).font = { bold: true };
  const example = sheet.addRow(columns.map((c) => template.examples?.[c.key] ?? c.example));
  example.font = { color: { argb: 'FF888888' } };
  columns.forEach((column, i) => {
    const col = sheet.getColumn(i + 1);
    col.width = column.width ?? 16;
    if (column.text) col.numFmt = '@';
    const list = template.lists?.[column.key] ?? column.list;
    if (list && list.length > 0)
      for (let row = 2; row <= DROPDOWN_ROWS + 1; row++)
        sheet.getCell(row, i + 1).dataValidation = {
          type: 'list',
          allowBlank: !column.required,
          formulae: [`"${list.join(',')}"`],
        };
  });
  const notes = workbook.addWorksheet(template.notesName);
  for (const line of template.notes) notes.addRow([line]);
  notes.getColumn(1).width = 120;
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** One data row of a sheet: its number as the spreadsheet shows it, and each column's text ('' when empty). */
export interface SheetRecord {
  row: number;
  values: Record<string, string>;
}

export type SheetRecords =
  | { ok: true; records: SheetRecord[]; errors: Map<number, string> }
  | { ok: false; key: MessageKey; params?: Record<string, string | number> };

const cellText = (value: string | number | boolean | null) => (value === null ? '' : String(value).trim());

interface RecordOptions {
  language: Language;
  maxRows: number;
  /** A required column the file may leave out this time (one the dialog's choice fills). */
  mayOmit?: (column: SheetColumn) => boolean;
}

type Refusal = Extract<SheetRecords, { ok: false }>;

/**
 * Takes a sheet's rows one at a time (`take`, each row the sheet holds, in order) into records, and
 * answers 'stop' as soon as the file is refused whole, so a sheet past `maxRows` is not read to its
 * end; `finish` gives the outcome once the rows ran out or were stopped.
 */
function sheetRecordsReader(columns: readonly SheetColumn[], options: RecordOptions) {
  const { language } = options;
  const byName = new Map<string, string>();
  for (const c of columns) {
    byName.set(c.zh.toLowerCase(), c.key);
    byName.set(c.en.toLowerCase(), c.key);
  }
  const position = new Map<string, number>();
  // Decided once per file, not once per cell: where each column sits and what its example reads.
  let reads: {
    key: string;
    col: number | undefined;
    zeroPad?: number;
    date: boolean;
    example: string | null;
  }[] = [];
  /** A row below the header exists (an empty one too): without one, the file is empty. */
  let pastHeader = false;
  /** Rows holding a value, the header's included. */
  let filledRows = 0;
  let refusal: Refusal | null = null;
  const records: SheetRecord[] = [];
  const errors = new Map<number, string>();

  const readHeader = (row: ExcelJS.Row) => {
    row.eachCell((cell, col) => {
      // A header marked as required ("* Weight") is the same column.
      const key = byName.get(
        cellText(cell.value as string)
          .toLowerCase()
          .replace(/^\*\s*/, ''),
      );
      if (key) position.set(key, col);
    });
  };
  /** The header is all read once a row below it comes: its columns decide whether the file is taken. */
  const checkColumns = (): Refusal | null => {
    const missing = columns.filter((c) => c.required && !position.has(c.key) && !options.mayOmit?.(c));
    if (missing.length > 0)
      return {
        ok: false,
        key: 'import.missingColumns',
        params: { columns: missing.map((c) => columnLabel(c, language)).join(', ') },
      };
    reads = columns.map((column) => ({
      key: column.key,
      col: position.get(column.key),
      zeroPad: column.zeroPad,
      date: column.date ?? false,
      example: column.exampleVaries ? null : cellText(column.example),
    }));
    return null;
  };
  const readRow = (row: ExcelJS.Row, rowNumber: number) => {
    const values: Record<string, string> = {};
    let filled = false;
    let asExample = true;
    // The row's values at once: a cell object per column is needed only to name a bad cell.
    const cells = row.values as ExcelJS.CellValue[];
    for (const { key, col, zeroPad, date, example } of reads) {
      let text = '';
      if (col) {
        const raw = cells[col];
        // Text and numbers, nearly every cell of a file, need no more than this.
        if (typeof raw === 'string') text = raw.trim();
        else if (typeof raw === 'number' && zeroPad && Number.isInteger(raw) && raw >= 0)
          text = String(raw).padStart(zeroPad, '0');
        else if (typeof raw === 'number') text = String(raw);
        // A spreadsheet keeps a date as that day's midnight in UTC.
        else if (date && raw instanceof Date && !Number.isNaN(raw.getTime()))
          text = raw.toISOString().slice(0, 10);
        else {
          const cell = importValue(raw);
          if (!cell.ok) {
            const address = row.getCell(col).address;
            errors.set(
              rowNumber,
              translate(language, cell.reason === 'formula' ? 'import.formula' : 'import.badCell', {
                cell: address,
              }),
            );
            return;
          }
          text = cellText(cell.value);
        }
      }
      values[key] = text;
      if (text !== '') filled = true;
      if (example !== null && text !== example) asExample = false;
    }
    // An empty row, and the template's example row left as it was, are not orders.
    if (!filled || asExample) return;
    records.push({ row: rowNumber, values });
  };

  return {
    take(row: ExcelJS.Row): 'stop' | undefined {
      if (row.number === 1) {
        readHeader(row);
        if (row.hasValues) filledRows++;
        return;
      }
      if (!pastHeader) {
        pastHeader = true;
        refusal = checkColumns();
        if (refusal) return 'stop';
      }
      if (!row.hasValues) return;
      filledRows++;
      if (filledRows - 1 > options.maxRows) {
        refusal = { ok: false, key: 'import.tooMany', params: { max: options.maxRows } };
        return 'stop';
      }
      readRow(row, row.number);
    },
    /** The outcome; `hasSheet` false when the workbook had no sheet at all. */
    finish(hasSheet: boolean): SheetRecords {
      if (!hasSheet || !pastHeader) return { ok: false, key: 'import.empty' };
      if (refusal) return refusal;
      if (records.length === 0 && errors.size === 0) return { ok: false, key: 'import.empty' };
      return { ok: true, records, errors };
    },
  };
}

/**
 * Reads the first sheet of a batch file into one record per filled row. The whole file is refused
 * (`ok: false`) when it has no rows, lacks a required column, or holds more than `maxRows`; a row with a
 * cell that cannot be taken as it is (a formula, a date) comes back in `errors` with its message.
 * Empty rows and the template's untouched example row are skipped. This reads a workbook already
 * loaded; an upload is read row by row with `readFileRecords`, to the same outcome.
 */
export function readSheetRecords(
  workbook: ExcelJS.Workbook,
  columns: readonly SheetColumn[],
  options: RecordOptions,
): SheetRecords {
  const reader = sheetRecordsReader(columns, options);
  const sheet = workbook.worksheets[0];
  if (!sheet) return reader.finish(false);
  for (let number = 1; number <= sheet.rowCount; number++) {
    const row = sheet.findRow(number);
    if (row && reader.take(row) === 'stop') break;
  }
  return reader.finish(true);
}

/**
 * `readSheetRecords` for an uploaded file, read row by row (`readSheetRows`): a sheet past `maxRows`
 * is refused as soon as its row past the limit is read. Null when the file is not an xlsx workbook.
 */
export async function readFileRecords(
  bytes: Buffer,
  columns: readonly SheetColumn[],
  options: RecordOptions,
): Promise<SheetRecords | null> {
  const reader = sheetRecordsReader(columns, options);
  const read = await readSheetRows(bytes, reader.take);
  return read && reader.finish(read.sheet !== null);
}

/**
 * The message of a row that failed its schema: the first issue, in the caller's language, naming the
 * column the value came from rather than the API's field (`Recipient ZIP: ...`, not `ZIP code: ...`).
 * A path no column gave keeps the field's own label.
 */
export function rowIssueMessage(
  issues: readonly z.core.$ZodIssue[],
  language: Language,
  columnOfPath: (path: string) => SheetColumn | null,
): string {
  const [issue] = issues;
  if (!issue) return translate(language, 'validation.invalid', { field: '' });
  const column = columnOfPath(issue.path.map(String).join('.'));
  if (!column) return localizeIssues([issue], language)[0]?.message ?? '';
  // The shared messages name a field by its label; a marker no label matches stands in for the column.
  const marker = `⟦${column.key}⟧`;
  const [first] = localizeIssues([{ ...issue, path: [marker] } as z.core.$ZodIssue], language);
  return (first?.message ?? '').replaceAll(marker, columnLabel(column, language));
}
