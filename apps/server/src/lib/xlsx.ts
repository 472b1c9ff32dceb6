import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';

export interface XlsxColumn<T> {
  header: string;
  width?: number;
  value: (row: T) => string | number | boolean | Date | null;
}

/** One sheet, a bold header row, then a row per record; answered as a download. */
export async function sendXlsx<T>(
  reply: FastifyReply,
  filename: string,
  columns: XlsxColumn<T>[],
  rows: T[],
) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  sheet.columns = columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width ?? 20 }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) sheet.addRow(columns.map((c) => c.value(row)));
  const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(filename)}`)
    .send(buffer);
}
