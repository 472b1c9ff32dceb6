import { PassThrough } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import ExcelJS from 'exceljs';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BATCH_COLUMNS,
  batchRecordOptions,
  MAX_BATCH_ROWS,
  readBatchSheet,
} from '../modules/truck-orders/batch.ts';
import { readFileRecords } from './batch-sheet.ts';
import { readSheetRows } from './xlsx.ts';

/**
 * The batch imports read their sheet row by row: a file at the row limit costs the rows it holds, not
 * a model of every cell (the whole-workbook loader grew the process by 125 to 160 MB at its peak for
 * the file below, and kept about 105 MB of it while the rows were priced and booked), and a sheet past
 * the limit is refused at the row past it.
 */
const MB = 1024 * 1024;

// A full collection for a clean starting point; the reading itself runs as it would in production.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

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
let smallFile: Buffer;
/** The parts of a one-sheet workbook, its sheet to be replaced. */
let template: Record<string, Uint8Array>;

beforeAll(async () => {
  fullFile = await batchFile(MAX_BATCH_ROWS);
  smallFile = await batchFile(10);
  const small = new ExcelJS.Workbook();
  small.addWorksheet('Orders').addRow(['x']);
  template = unzipSync(new Uint8Array(await small.xlsx.writeBuffer()));
});

describe('reading a batch sheet row by row', () => {
  it('checks a file at the row limit holding no more than its rows, well under the whole workbook', async () => {
    const check = async (bytes: Buffer) => {
      const records = await readFileRecords(bytes, BATCH_COLUMNS, batchRecordOptions('en-US', null));
      if (!records) throw new Error('not read as a workbook');
      return readBatchSheet(records, 'en-US', '2026-01-05', null);
    };
    // A first, small file, so what is measured is the file, not the first use of the code.
    await check(smallFile);
    collect();
    const before = process.memoryUsage();
    const highWater = process.resourceUsage().maxRSS * 1024;
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 5);
    const sheet = await check(fullFile);
    clearInterval(sampler);
    // The kernel's high-water mark sees what sampling between turns could miss (a stretch of work that
    // keeps the turn); it may already stand above this test's start, which only counts against it.
    const peak = Math.max(peakRss, process.resourceUsage().maxRSS * 1024, highWater);
    if (!sheet.ok) throw new Error(sheet.key);
    expect(sheet.rows).toHaveLength(MAX_BATCH_ROWS);
    expect(sheet.errors.size).toBe(0);
    // Read row by row it measured 48 to 76 MB; the whole-workbook loader, 125 to 160 MB.
    expect((peak - before.rss) / MB).toBeLessThan(95);
    expect((peakHeap - before.heapUsed) / MB).toBeLessThan(110);
  });

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
