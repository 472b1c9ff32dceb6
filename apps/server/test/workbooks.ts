import ExcelJS from 'exceljs';

/** A cell as a test writes it into a workbook or reads it back. */
export type SheetCell = string | number | null;
export type SheetRow = SheetCell[];

/** A workbook of the given sheets, by name, each holding its rows as given; the file as bytes. */
export async function workbookBytes(sheets: Record<string, SheetRow[]>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = wb.addWorksheet(name);
    for (const row of rows) sheet.addRow(row);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A row without its empty cells at the end, which a spreadsheet does not keep. */
export const trimmed = (row: SheetRow): SheetRow => {
  const out = [...row];
  while (out.length > 0 && out[out.length - 1] === null) out.pop();
  return out;
};

/** Every sheet of a workbook, by name, as rows of cells without exceljs's leading empty slot. */
export async function workbookSheets(bytes: Buffer): Promise<Map<string, SheetRow[]>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const out = new Map<string, SheetRow[]>();
  for (const sheet of wb.worksheets) {
    const rows: SheetRow[] = [];
    sheet.eachRow((row) => {
      rows.push(trimmed(Array.from((row.values as SheetRow).slice(1), (v) => v ?? null)));
    });
    out.set(sheet.name, rows);
  }
  return out;
}

/** One sheet's rows, as `workbookSheets` reads them; none when the workbook has no such sheet. */
export const sheetRows = async (bytes: Buffer, sheet: string): Promise<SheetRow[]> =>
  (await workbookSheets(bytes)).get(sheet) ?? [];
