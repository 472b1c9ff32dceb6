import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

/** A workbook file starts as a zip archive; anything else is refused before the parser sees it. */
export function looksLikeXlsx(buffer: Buffer): boolean {
  return buffer.length > 4 && buffer.readUInt32LE(0) === 0x04034b50;
}

/** Loads an xlsx file; null when it is not one (wrong type, damaged). */
export async function readWorkbook(buffer: Buffer): Promise<ExcelJS.Workbook | null> {
  if (!looksLikeXlsx(buffer)) return null;
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
    return workbook;
  } catch {
    return null;
  }
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
