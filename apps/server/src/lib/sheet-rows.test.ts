import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { BATCH_COLUMNS, batchRecordOptions, MAX_BATCH_ROWS } from '../modules/truck-orders/batch.ts';
import { readFileRecords } from './batch-sheet.ts';
import { readSheetRows } from './xlsx.ts';

/**
 * The batch imports read their sheet row by row: a file at the row limit costs the rows it holds, not
 * a model of every cell (the whole-workbook loader grew the process by 125 to 160 MB at its peak for
 * the file below, and kept about 105 MB of it while the rows were priced and booked), and a sheet past
 * the limit is refused at the row past it.
 */
/** The heap the row-by-row reading must fit in, and the whole-workbook loader cannot. */
const HEAP_CAP_MB = 112;
const serverRoot = new URL('../..', import.meta.url).pathname;
const READER = new URL('../../test/fixtures/read-batch-sheet.ts', import.meta.url).pathname;

/** An order row as a shipper's file has it: every row its own order number, name and weight. */
const orderRow = (i: number) =>
  BATCH_COLUMNS.map((c) => {
    if (c.key === 'customerOrderNo') return `PO-${100_000 + i}`;
    if (c.key === 'totalWeight') return 300 + (i % 3_000);
    if (c.key === 'pickupName' || c.key === 'deliveryName' || c.key === 'goodsName')
      return `${c.example} ${i}`;
    return c.example;
  });

/** A batch file of `rows` orders, written as a spreadsheet program writes one (shared strings). */
async function batchFile(rows: number): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true });
  const sheet = writer.addWorksheet('Orders');
  sheet.addRow(BATCH_COLUMNS.map((c) => c.en)).commit();
  for (let i = 0; i < rows; i++) sheet.addRow(orderRow(i)).commit();
  sheet.commit();
  await writer.commit();
  return Buffer.concat(chunks);
}

/**
 * A batch file whose order sheet has `rows` rows below its header, written straight as XML, and whose
 * end is broken: read to its end, it is no workbook at all.
 */
function longSheetBrokenAtEnd(rows: number, end = '</broken></sheetData></worksheet>'): Buffer {
  const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
  // Column letters past Z as a spreadsheet writes them: AA, AB, ...
  const letters = (i: number) =>
    i < 26 ? String.fromCharCode(65 + i) : `A${String.fromCharCode(65 + i - 26)}`;
  const head = BATCH_COLUMNS.map((c, i) => cell(`${letters(i)}1`, c.en)).join('');
  const body: string[] = [];
  for (let r = 2; r <= rows + 1; r++) body.push(`<row r="${r}"><c r="A${r}"><v>${r}</v></c></row>`);
  const sheet = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">${head}</row>${body.join('')}${end}`;
  return Buffer.from(zipSync({ ...template, 'xl/worksheets/sheet1.xml': strToU8(sheet) }));
}

/** The largest legal batch file. */
let fullFile: Buffer;
/** The parts of a one-sheet workbook, its sheet to be replaced. */
let template: Record<string, Uint8Array>;

beforeAll(async () => {
  fullFile = await batchFile(MAX_BATCH_ROWS);
  const small = new ExcelJS.Workbook();
  small.addWorksheet('Orders').addRow(['x']);
  template = unzipSync(new Uint8Array(await small.xlsx.writeBuffer()));
});

describe('reading a batch sheet row by row', () => {
  it('checks a file at the row limit holding no more than its rows, well under the whole workbook', async () => {
    // In a process whose heap is capped where the whole-workbook loader cannot fit: reading and
    // checking row by row fit under a cap of 96 MB, while loading the whole workbook (the fixture's
    // `whole`) ran out of memory under 128 MB and needed about 140 MB. A cap holds whatever else shares
    // the machine, where a peak sampled from outside moved with how late the collector ran. Loading the
    // whole workbook is not tried on each run: under the cap the collector labours for a minute before
    // it gives up.
    const dir = mkdtempSync(join(tmpdir(), 'batch-sheet-'));
    const file = join(dir, 'full.xlsx');
    writeFileSync(file, fullFile);
    try {
      const rows = spawnSync(
        process.execPath,
        [`--max-old-space-size=${HEAP_CAP_MB}`, '--import', 'tsx', READER, 'rows', file],
        { cwd: serverRoot, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
      );
      expect(rows.stderr).toBe('');
      expect(rows.status).toBe(0);
      expect(rows.stdout.trim()).toBe(String(MAX_BATCH_ROWS));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('reads text in any script whole, wherever the file is cut into pieces for the reader', async () => {
    const names = Array.from({ length: 3_000 }, (_, i) => `货物名称 Ünïcode ✓ ${i} ${'运'.repeat(i % 7)}`);
    const built = new ExcelJS.Workbook();
    const sheet = built.addWorksheet('订单');
    for (const name of names) sheet.addRow([name, { richText: [{ text: name }] }]);
    const file = Buffer.from(await built.xlsx.writeBuffer());
    const read: string[] = [];
    const outcome = await readSheetRows(file, (row) => {
      const [, plain, rich] = row.values as [unknown, string, { richText: { text: string }[] }];
      read.push(plain, rich.richText.map((r) => r.text).join(''));
      return undefined;
    });
    expect(outcome).toEqual({ sheet: '订单', stopped: false });
    expect(read).toEqual(names.flatMap((name) => [name, name]));
  });

  it('refuses a sheet past the row limit at the row past it, without reading the sheet to its end', async () => {
    const file = longSheetBrokenAtEnd(200_000);
    const records = await readFileRecords(file, BATCH_COLUMNS, batchRecordOptions('en-US', null));
    // Read to its end, the file would have been no workbook (null): the reading stopped at the limit.
    expect(records).toEqual({ ok: false, key: 'import.tooMany', params: { max: MAX_BATCH_ROWS } });
    let visited = 0;
    const read = await readSheetRows(file, () => (++visited > MAX_BATCH_ROWS + 1 ? 'stop' : undefined));
    expect(read).toEqual({ sheet: 'Orders', stopped: true });
    expect(visited).toBe(MAX_BATCH_ROWS + 2);
    // The same sheet within the limit is read to its broken end, and said to be no workbook.
    expect(
      await readFileRecords(longSheetBrokenAtEnd(100), BATCH_COLUMNS, batchRecordOptions('en-US', null)),
    ).toBeNull();
    // A sheet cut off before its end is damaged too, not a shorter sheet: none of its rows is taken.
    const cutOff = longSheetBrokenAtEnd(100, '');
    expect(await readFileRecords(cutOff, BATCH_COLUMNS, batchRecordOptions('en-US', null))).toBeNull();
    expect(await readSheetRows(cutOff, () => undefined)).toBeNull();
    // Closed as it should be, the same rows read.
    const closed = longSheetBrokenAtEnd(100, '</sheetData></worksheet>');
    expect(await readSheetRows(closed, () => undefined)).toEqual({ sheet: 'Orders', stopped: false });
  });
});
