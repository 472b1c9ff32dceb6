import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { readSheetRecords, type SheetColumn } from './batch-sheet.ts';

const COLUMNS: SheetColumn[] = [
  { key: 'name', zh: '名称', en: 'Name', required: true, example: 'Acme' },
  { key: 'zip', zh: '邮编', en: 'ZIP', required: true, example: '02134', zeroPad: 5 },
  { key: 'weight', zh: '重量', en: 'Weight', example: 100 },
  { key: 'product', zh: '产品', en: 'Product', example: 'P-1', exampleVaries: true },
];

/** A file as an upload brings it: built, written to bytes and read back. */
async function sheetOf(header: string[], rows: ExcelJS.CellValue[][]) {
  const built = new ExcelJS.Workbook();
  const sheet = built.addWorksheet('Orders');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  const read = new ExcelJS.Workbook();
  await read.xlsx.load((await built.xlsx.writeBuffer()) as ArrayBuffer);
  return read;
}

describe('readSheetRecords', () => {
  it('reads each cell as the text the sheet shows, in any column order and either language', async () => {
    const workbook = await sheetOf(
      ['Weight', '* 名称', 'zip', 'Unknown'],
      [
        [12.5, '  Dock 4 ', 2134, 'ignored'],
        [0, { richText: [{ text: 'Rich' }, { text: ' text ' }] }, '90210', null],
        [true, 'Flag', 123456, null],
      ],
    );
    const sheet = readSheetRecords(workbook, COLUMNS, { language: 'en-US', maxRows: 10 });
    expect(sheet).toEqual({
      ok: true,
      errors: new Map(),
      records: [
        // A ZIP a spreadsheet turned into a number gets its leading zero back; a missing column is ''.
        { row: 2, values: { name: 'Dock 4', zip: '02134', weight: '12.5', product: '' } },
        { row: 3, values: { name: 'Rich text', zip: '90210', weight: '0', product: '' } },
        { row: 4, values: { name: 'Flag', zip: '123456', weight: 'true', product: '' } },
      ],
    });
  });

  it('skips empty rows and the untouched example row, and names a cell holding a formula', async () => {
    const workbook = await sheetOf(
      ['Name', 'ZIP', 'Weight', 'Product'],
      [
        // The example as the template has it (the product, which varies per caller, does not count).
        ['Acme', '02134', 100, 'P-9'],
        ['   ', null, null, null],
        ['Acme', '02134', 101, 'P-1'],
        ['Bad', { formula: '1+1', result: 2 }, 1, 'P-1'],
      ],
    );
    const sheet = readSheetRecords(workbook, COLUMNS, { language: 'en-US', maxRows: 10 });
    if (!sheet.ok) throw new Error(sheet.key);
    expect(sheet.records).toEqual([
      { row: 4, values: { name: 'Acme', zip: '02134', weight: '101', product: 'P-1' } },
    ]);
    expect([...sheet.errors.keys()]).toEqual([5]);
    expect(sheet.errors.get(5)).toContain('B5');
  });

  it('refuses a file without a required column, or with no rows', async () => {
    const missing = readSheetRecords(await sheetOf(['Name'], [['x']]), COLUMNS, {
      language: 'en-US',
      maxRows: 10,
    });
    expect(missing).toMatchObject({ ok: false, key: 'import.missingColumns', params: { columns: 'ZIP' } });
    const onlyExample = readSheetRecords(
      await sheetOf(['Name', 'ZIP', 'Weight'], [['Acme', '02134', 100]]),
      COLUMNS,
      { language: 'en-US', maxRows: 10 },
    );
    expect(onlyExample).toEqual({ ok: false, key: 'import.empty' });
  });
});
