import type { Language } from '@freight/contracts/api';
import { type MessageKey, translate } from '@freight/contracts/messages';
import { formatMoney } from '@freight/contracts/money';
import { moneyField } from '@freight/contracts/validation';
import type ExcelJS from 'exceljs';
import { importCell } from '../../lib/xlsx.ts';

/*
 * Reading the channel workbooks (zone chart, prices, billing rules): cells as an import takes them,
 * sheets and headers by their name in either language, messages that name the column.
 */

/** A row of a workbook the import refused, as the spreadsheet numbers it; row 0 is the whole file. */
export interface TableRowError {
  sheet: string;
  row: number;
  /** The field the message is about (`originFrom`, `brackets.2.weight`...); empty when none. */
  field: string;
  message: string;
}

export type CellValue = string | number | null;

/** The cells of a row at these columns, or the message for the first one an import cannot take. */
export function readCells(
  row: ExcelJS.Row,
  columns: readonly number[],
  language: Language,
): { values: CellValue[] } | { message: string } {
  const values: CellValue[] = [];
  for (const column of columns) {
    const cell = row.getCell(column);
    const read = importCell(cell);
    if (!read.ok)
      return {
        message: translate(language, read.reason === 'formula' ? 'import.formula' : 'import.badCell', {
          cell: cell.address,
        }),
      };
    values.push(typeof read.value === 'boolean' ? String(read.value) : read.value);
  }
  return { values };
}

/** A code of `digits` digits; a spreadsheet that read "001" as the number 1 gets its zeros back. */
export function codeText(value: CellValue, digits: number): string {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < 10 ** digits)
    return String(value).padStart(digits, '0');
  return value === null ? '' : String(value).trim();
}

/** Money as the API takes it from a cell: '' for an empty cell, null for one that is not an amount. */
export function moneyText(value: CellValue): string | null {
  if (value === null) return '';
  let text: string;
  if (typeof value === 'number') {
    const hundredths = Math.round(value * 100);
    // 8.95 is stored as 8.9499999...; anything further from a whole cent has more than two places.
    if (!Number.isSafeInteger(hundredths) || Math.abs(value * 100 - hundredths) > 1e-6) return null;
    text = formatMoney(BigInt(hundredths));
  } else text = value.trim();
  return moneyField.safeParse(text).success ? text : null;
}

/** A weight from a cell, or null when it is not a plain number. */
export function weightOf(value: CellValue): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value === null || !/^\d+(\.\d+)?$/.test(value.trim())) return null;
  return Number(value);
}

/**
 * A message about a column of a workbook, naming the column as its header does. Messages that say
 * `{{field}}` name it themselves; any other gets the name in front (as field messages do).
 */
export function aboutColumn(language: Language, column: string, key: MessageKey, params = {}): string {
  const text = translate(language, key, { field: column, ...params });
  if (text.toLowerCase().includes(column.toLowerCase())) return text;
  return language === 'zh-CN' ? `${column}:${text}` : `${column}: ${text}`;
}

/** Every text a header or a row label may carry, in either language, lower-cased. */
export function textsOf(key: MessageKey): Set<string> {
  const out = new Set<string>();
  for (const language of ['zh-CN', 'en-US'] as const)
    for (const unit of ['lb', 'kg']) out.add(translate(language, key, { unit }).trim().toLowerCase());
  return out;
}

export const normalised = (value: CellValue) => (value === null ? '' : String(value).trim().toLowerCase());

/** The sheet of the workbook with either language's name for it. */
export function sheetNamed(workbook: ExcelJS.Workbook, key: MessageKey): ExcelJS.Worksheet | undefined {
  const names = textsOf(key);
  return workbook.worksheets.find((s) => names.has(s.name.trim().toLowerCase()));
}

/** Header columns by the field each stands for, read in either language; and the fields missing. */
export function headerColumns<F extends string>(
  sheet: ExcelJS.Worksheet,
  fields: readonly F[],
  headerOf: (language: Language, field: F) => string,
) {
  const byText = new Map<string, F>();
  for (const field of fields)
    for (const language of ['zh-CN', 'en-US'] as const)
      byText.set(headerOf(language, field).trim().toLowerCase(), field);
  const found = new Map<F, number>();
  sheet.getRow(1).eachCell((cell, column) => {
    const read = importCell(cell);
    const field = read.ok && read.value !== null ? byText.get(normalised(String(read.value))) : undefined;
    if (field && !found.has(field)) found.set(field, column);
  });
  return { found, missing: fields.filter((f) => !found.has(f)) };
}
