import { and, eq } from 'drizzle-orm';
import { getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { useExpressLine } from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';
import { expressWaybills } from '../../db/schema.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [
    ['admin', 'customer', 'direct'],
    ['admin', 'customer'],
  ],
  language: 'en-US',
});
const { paidWaybill } = useExpressLine(f);

/** The label's printable width in dots (812 less two margins of 30), which no line may pass. */
const INNER_DOTS = 752;

async function rowOf(id: number) {
  const [row] = await f.db
    .select()
    .from(expressWaybills)
    .where(and(eq(expressWaybills.tenantId, f.t.tenant.id), eq(expressWaybills.id, id)));
  if (!row) throw new Error(`no waybill ${id}`);
  return row;
}

async function printZpl(ids: number[]) {
  const res = await f.as('customer').post('/api/express/order/print', { ids, format: 'zpl' });
  expect(res.headers['content-type']).toContain('application/x-zpl');
  return { zpl: res.body, disposition: String(res.headers['content-disposition']) };
}

/** The labels of a ZPL file: each `^XA` to its `^XZ`. */
const labelsOf = (zpl: string) => zpl.match(/\^XA[\s\S]*?\^XZ/g) ?? [];

/**
 * Field data as a printer prints it: `_XX` bytes (read as UTF-8 under `^CI28`), and in a `^FB` block
 * `\&` a line break and `\\` a backslash.
 */
function printed(data: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < data.length; i++) {
    const char = data[i] as string;
    if (char === '_') {
      bytes.push(Number.parseInt(data.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (char === '\\') {
      bytes.push(data[i + 1] === '&' ? 0x0a : 0x5c);
      i += 1;
    } else bytes.push(char.charCodeAt(0));
  }
  return Buffer.from(bytes).toString('utf8');
}

interface TextField {
  fontWidth: number;
  blockLines: number;
  data: string;
  lines: string[];
}

/** The text fields of a label: font, `^FB` line count, raw data and the lines it prints. */
function textFields(label: string): TextField[] {
  return [...label.matchAll(/\^A0N,\d+,(\d+)\^FB\d+,(\d+),[^^]*\^FH_\^FD(.*?)\^FS/g)].map((m) => ({
    fontWidth: Number(m[1]),
    blockLines: Number(m[2]),
    data: m[3] as string,
    lines: printed(m[3] as string).split('\n'),
  }));
}

const printedText = (label: string) =>
  textFields(label)
    .flatMap((field) => field.lines)
    .join('\n');

/** The data of the label's Code 128 barcode. */
const barcodeOf = (label: string) => /\^BCN,[^^]*\^FH_\^FD(.*?)\^FS/.exec(label)?.[1];

/**
 * Every field's data free of `^` and `~` (the data's own go as `_5E` and `_7E`), lines that fit the
 * label at 0.6 of the font's width a character, and as many lines as the block says.
 */
function expectInert(label: string) {
  const fields = [...label.matchAll(/\^FD(.*?)\^FS/g)].map((m) => m[1] as string);
  expect(fields.length).toBeGreaterThan(0);
  for (const data of fields) expect(data).not.toMatch(/[\^~]/);
  expect(label).not.toContain('~');
  for (const field of textFields(label)) {
    expect(field.lines).toHaveLength(field.blockLines);
    for (const line of field.lines)
      expect([...line].length * field.fontWidth * 0.6).toBeLessThanOrEqual(INNER_DOTS);
  }
}

describe('waybill labels', () => {
  it('prints one waybill as a ZPL label of 4 × 6 inches at 203 dpi, its tracking number a barcode and text', async () => {
    const waybill = await paidWaybill([]);
    const { trackingNo } = await rowOf(waybill.id);
    const { zpl, disposition } = await printZpl([waybill.id]);
    expect(disposition).toBe(`inline; filename*=UTF-8''label-${waybill.waybillNo}.zpl`);
    expect(zpl.startsWith('^XA')).toBe(true);
    const labels = labelsOf(zpl);
    expect(labels).toHaveLength(1);
    const label = labels[0] as string;
    for (const command of ['^PW812', '^LL1218', '^CI28']) expect(label).toContain(command);
    expect(barcodeOf(label)).toBe(trackingNo);
    const text = printedText(label);
    expect(text.split('\n')).toContain(trackingNo);
    for (const expected of [
      'Summit Parcel Ground',
      'SHIP TO',
      'Dallas TX 75201',
      'REF: PO-77',
      waybill.waybillNo,
    ])
      expect(text).toContain(expected);
    expectInert(label);
    expect(await rowOf(waybill.id)).toMatchObject({ status: 'printed', printCount: 1 });
  });

  it('prints several waybills in one ZPL file, a label per waybill in the order asked', async () => {
    const waybills = [await paidWaybill([]), await paidWaybill([]), await paidWaybill([])];
    const asked = [waybills[2], waybills[0], waybills[1]].map((w) => (w as { id: number }).id);
    const { zpl, disposition } = await printZpl(asked);
    expect(disposition).toContain('labels-3.zpl');
    const labels = labelsOf(zpl);
    expect(labels).toHaveLength(3);
    expect(zpl.match(/\^XA/g)).toHaveLength(3);
    expect(zpl.match(/\^XZ/g)).toHaveLength(3);
    for (const [i, id] of asked.entries()) {
      const { trackingNo, waybillNo } = await rowOf(id);
      const label = labels[i] as string;
      expect(barcodeOf(label)).toBe(trackingNo);
      expect(printedText(label)).toContain(trackingNo);
      expect(printedText(label)).toContain(waybillNo);
      expectInert(label);
    }
  });

  it('prints ZPL commands in every text field as text, never obeying them', async () => {
    const waybill = await paidWaybill([]);
    const row = await rowOf(waybill.id);
    // Short enough that no field wraps inside them; each names its field so a lost one shows.
    const evil = (field: string) => `${field}^XZ~JA_\\&`;
    const address = (side: string) => ({
      name: `Bob ^XZ^XA^FDevil ${side}`,
      company: evil(`${side}Co`),
      address1: evil(`${side}A1`),
      address2: evil(`${side}A2`),
      city: evil(`${side}Ci`),
      state: evil(`${side}St`),
      zipcode: evil(`${side}Zi`),
      country: evil(`${side}Cn`),
      dialCode: '~1',
      phone: evil(`${side}Ph`),
    });
    const channel = {
      ...row.channel,
      carrier: evil('Car'),
      service: evil('Svc'),
      nameEn: evil('Chn'),
      code: evil('Cod'),
    };
    const shipment = {
      ...row.shipment,
      sender: { ...row.shipment.sender, ...address('S') },
      recipient: { ...row.shipment.recipient, ...address('R') },
    };
    await f.db
      .update(expressWaybills)
      .set({ channel, shipment, reference: evil('Ref') })
      .where(and(eq(expressWaybills.tenantId, f.t.tenant.id), eq(expressWaybills.id, waybill.id)));

    const { zpl } = await printZpl([waybill.id]);
    expect(labelsOf(zpl)).toHaveLength(1);
    expect(zpl.match(/\^XA/g)).toHaveLength(1);
    expect(zpl.match(/\^XZ/g)).toHaveLength(1);
    const label = labelsOf(zpl)[0] as string;
    expectInert(label);
    expect(label).toContain('Bob _5EXZ_5EXA_5EFDevil S');
    const text = printedText(label);
    const fields = [
      ...Object.values(channel).filter((v): v is string => typeof v === 'string' && v.includes('^')),
      ...[shipment.sender, shipment.recipient].flatMap((a) => [
        a.name,
        a.company,
        a.address1,
        a.address2,
        a.city,
        a.state,
        a.zipcode,
        a.country,
        a.phone,
      ]),
      evil('Ref'),
      '+~1',
    ];
    for (const value of fields) expect(text).toContain(value);
  });

  it('hex-escapes text outside printable ASCII as UTF-8 bytes, which print under ^CI28', async () => {
    const waybill = await paidWaybill([]);
    const row = await rowOf(waybill.id);
    const recipient = { ...row.shipment.recipient, name: 'José Müller', company: '北京仓', city: 'Zürich' };
    await f.db
      .update(expressWaybills)
      .set({ shipment: { ...row.shipment, recipient } })
      .where(and(eq(expressWaybills.tenantId, f.t.tenant.id), eq(expressWaybills.id, waybill.id)));
    const { zpl } = await printZpl([waybill.id]);
    expect(zpl).toMatch(/^[\x20-\x7e\n]*$/);
    expect(zpl).toContain('Jos_C3_A9 M_C3_BCller');
    expect(zpl).toContain('_E5_8C_97_E4_BA_AC_E4_BB_93');
    const text = printedText(labelsOf(zpl)[0] as string);
    for (const value of ['José Müller', '北京仓', 'Zürich', 'Ground Standard · USG-STD'])
      expect(text).toContain(value);
  });

  it('cuts lines longer than the label to fit, without losing the lines after them', async () => {
    const waybill = await paidWaybill([]);
    const row = await rowOf(waybill.id);
    const long = `${'Warehouse '.repeat(12)}Unit ${'9'.repeat(80)}`;
    const recipient = { ...row.shipment.recipient, address1: long };
    await f.db
      .update(expressWaybills)
      .set({ shipment: { ...row.shipment, recipient }, reference: 'R'.repeat(120) })
      .where(and(eq(expressWaybills.tenantId, f.t.tenant.id), eq(expressWaybills.id, waybill.id)));
    const { zpl } = await printZpl([waybill.id]);
    const label = labelsOf(zpl)[0] as string;
    expectInert(label);
    const lines = printedText(label).split('\n');
    // The long street takes two lines of the recipient's block, and the city and phone still follow it.
    const street = lines.filter((line) => line.startsWith('Warehouse'));
    expect(street.length).toBeGreaterThan(0);
    const to = lines.slice(lines.indexOf('SHIP TO'));
    expect(to.filter((line) => line.startsWith('Warehouse'))).toHaveLength(2);
    expect(to).toEqual(expect.arrayContaining(['Dallas TX 75201', '+1 2135550100']));
    // The reference is cut to one line; the waybill number below it stays.
    expect(lines.find((line) => line.startsWith('REF: R'))?.length).toBeLessThan(125);
    expect(lines).toContain(
      `WAYBILL: ${waybill.waybillNo}   DATE: ${row.createdAt.toISOString().slice(0, 10)}`,
    );
  });

  it('still prints a PDF unless ZPL is asked for, a 4 × 6 inch page per waybill', async () => {
    const waybills = [await paidWaybill([]), await paidWaybill([])];
    const ids = waybills.map((w) => w.id);
    for (const body of [{ ids }, { ids, format: 'pdf' }]) {
      const res = await f.as('customer').post('/api/express/order/print', body);
      expect(res.headers['content-type']).toContain('application/pdf');
      expect(res.headers['content-disposition']).toContain('labels-2.pdf');
      expect(res.rawPayload.subarray(0, 4).toString('latin1')).toBe('%PDF');
      const pdf = await getDocumentProxy(new Uint8Array(res.rawPayload));
      expect(pdf.numPages).toBe(2);
      const page = await pdf.getPage(2);
      expect([page.view[2], page.view[3]]).toEqual([288, 432]);
    }
    await f.as('customer').fail('/api/express/order/print', { ids, format: 'epl' }, 400);
  });

  it('refuses another organisation’s waybills in either format and finds no other tenant’s, printing none', async () => {
    const waybill = await paidWaybill([]);
    const own = await paidWaybill([], 'direct');
    for (const format of ['pdf', 'zpl']) {
      await f.as('direct').fail('/api/express/order/print', { ids: [waybill.id], format }, 404);
      // One waybill out of reach refuses the whole call: the caller's own is not printed either.
      await f.as('direct').fail('/api/express/order/print', { ids: [own.id, waybill.id], format }, 404);
      await f
        .as('customer', f.tenant(1))
        .fail('/api/express/order/print', { ids: [waybill.id], format }, 404);
      await f.as('admin', f.tenant(1)).fail('/api/express/order/print', { ids: [waybill.id], format }, 404);
    }
    expect(await rowOf(waybill.id)).toMatchObject({ status: 'to_be_printed', printCount: 0 });
    expect(await rowOf(own.id)).toMatchObject({ status: 'to_be_printed', printCount: 0 });
  });
});
