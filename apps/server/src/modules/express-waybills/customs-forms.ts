import {
  type CustomsContents,
  type CustomsInput,
  crossesBorder,
  type ExpressAddress,
} from '@freight/contracts/express-quotes';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import type { WaybillRow } from './service.ts';

/**
 * The customs papers of a parcel crossing a border, printed after its label on 4 × 6 inch pages: the
 * commercial invoice always, and on the portal's own label (no carrier files the declaration
 * electronically) the Universal Postal Union's declaration, a CN 22 for a small parcel or a CN 23.
 */

const WIDTH = 288;
const HEIGHT = 432;
const MARGIN = 12;
const INNER = WIDTH - 2 * MARGIN;

/** A CN 22 covers up to 300 SDR and 2 kg; past either a CN 23 is needed. Read in the declaration's currency. */
const CN22_MAX_CENTS = 30_000n;
const CN22_MAX_KG = 2;

const CONTENTS_NAMES: Record<CustomsContents, string> = {
  merchandise: 'Sale of goods',
  documents: 'Documents',
  gift: 'Gift',
  sample: 'Commercial sample',
  return: 'Returned goods',
};

/** Whether a waybill prints customs papers: it crosses a border and declares what it holds. */
export function needsCustomsForms(waybill: WaybillRow): boolean {
  return crossesBorder(waybill.shipment) && waybill.shipment.customs !== undefined;
}

const party = (a: ExpressAddress, taxId: string) =>
  [
    [a.name, a.company].filter(Boolean).join(', '),
    [a.address1, a.address2].filter(Boolean).join(', '),
    [a.city, a.state, a.zipcode, a.country].filter(Boolean).join(' '),
    a.phone ? `+${a.dialCode} ${a.phone}` : '',
    taxId ? `Tax id: ${taxId}` : '',
  ].filter(Boolean);

interface Totals {
  valueCents: bigint;
  weight: number;
}

function totalsOf(customs: CustomsInput): Totals {
  return customs.items.reduce(
    (sum, item) => ({
      valueCents: sum.valueCents + parseMoney(item.unitValue) * BigInt(item.quantity),
      weight: sum.weight + item.weight * item.quantity,
    }),
    { valueCents: 0n, weight: 0 },
  );
}

const money = (cents: bigint, currency: string) => `${formatMoney(cents)} ${currency}`;

/** The customs papers of the waybills that need them, one PDF each, by waybill id. */
export async function customsForms(waybills: readonly WaybillRow[]): Promise<Map<number, Buffer>> {
  const forms = new Map<number, Buffer>();
  const needing = waybills.filter(needsCustomsForms);
  if (needing.length === 0) return forms;
  const { default: PDFDocument } = await import('pdfkit');
  for (const waybill of needing) {
    const customs = waybill.shipment.customs as CustomsInput;
    const doc = new PDFDocument({ size: [WIDTH, HEIGHT], margin: MARGIN, autoFirstPage: false });
    doc.info.Title = `Customs ${waybill.waybillNo}`;
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    const done = new Promise<Buffer>((resolve, reject) => {
      doc.on('end', () => resolve(Buffer.concat(chunks)));
      doc.on('error', reject);
    });
    const weightUnit = waybill.shipment.unitSystem === 'kg_cm' ? 'kg' : 'lb';
    const totals = totalsOf(customs);
    commercialInvoice(doc, waybill, customs, totals, weightUnit);
    // A carrier's own label comes with the carrier's electronic declaration; the portal's needs the form.
    if (waybill.carrierAccountId === null) postalDeclaration(doc, waybill, customs, totals, weightUnit);
    doc.end();
    forms.set(waybill.id, await done);
  }
  return forms;
}

type Doc = PDFKit.PDFDocument;

function heading(doc: Doc, title: string, subtitle: string) {
  doc.addPage();
  doc.font('Helvetica-Bold').fontSize(12).text(title, MARGIN, MARGIN, { width: INNER });
  doc.font('Helvetica').fontSize(7).text(subtitle, { width: INNER });
  doc.moveDown(0.4);
}

function block(doc: Doc, label: string, lines: string[]) {
  doc.font('Helvetica-Bold').fontSize(6.5).text(label, { width: INNER });
  doc
    .font('Helvetica')
    .fontSize(7)
    .text(lines.join('\n') || '-', { width: INNER });
  doc.moveDown(0.3);
}

/** The items as rows: description, HS code, origin, quantity, value; cut to the page. */
function itemRows(doc: Doc, customs: CustomsInput, weightUnit: string) {
  const columns = [
    { title: 'Description', width: 92 },
    { title: 'HS code', width: 44 },
    { title: 'Origin', width: 26 },
    { title: 'Qty', width: 22 },
    { title: `Weight ${weightUnit}`, width: 34 },
    { title: `Value ${customs.currency}`, width: INNER - 218 },
  ];
  const row = (cells: string[], bold = false) => {
    const y = doc.y;
    let x = MARGIN;
    let height = 0;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(6.5);
    cells.forEach((cell, i) => {
      const width = columns[i]?.width ?? 20;
      const options = { width: width - 2, align: i >= 3 ? ('right' as const) : ('left' as const) };
      height = Math.max(height, doc.heightOfString(cell, options));
      doc.text(cell, x, y, options);
      x += width;
    });
    doc.x = MARGIN;
    doc.y = y + height + 2;
  };
  row(
    columns.map((c) => c.title),
    true,
  );
  for (const item of customs.items) {
    if (doc.y > HEIGHT - 90) {
      row(['(continued on the waybill record)', '', '', '', '', '']);
      break;
    }
    row([
      item.description,
      item.hsCode,
      item.originCountry,
      String(item.quantity),
      String(Math.round(item.weight * item.quantity * 1000) / 1000),
      formatMoney(parseMoney(item.unitValue) * BigInt(item.quantity)),
    ]);
  }
}

function commercialInvoice(
  doc: Doc,
  waybill: WaybillRow,
  customs: CustomsInput,
  totals: Totals,
  weightUnit: string,
) {
  const { sender, recipient } = waybill.shipment;
  heading(
    doc,
    'COMMERCIAL INVOICE',
    `Invoice ${waybill.waybillNo} · ${waybill.createdAt.toISOString().slice(0, 10)} · Tracking ${waybill.trackingNo}`,
  );
  block(doc, 'SHIPPER / EXPORTER', party(sender, customs.senderTaxId));
  block(doc, 'CONSIGNEE / IMPORTER', party(recipient, customs.receiverTaxId));
  block(doc, 'TERMS', [
    `Incoterm ${customs.incoterm} · Currency ${customs.currency} · ${CONTENTS_NAMES[customs.contentsType]}`,
    `Reason for export: ${CONTENTS_NAMES[customs.contentsType]}`,
  ]);
  itemRows(doc, customs, weightUnit);
  closing(
    doc,
    `Total value ${money(totals.valueCents, customs.currency)} · Total weight ${Math.round(totals.weight * 1000) / 1000} ${weightUnit}`,
    'I declare that the information on this invoice is true and correct and that the contents of this shipment are as stated above.',
    'Signature ____________________________   Date ______________',
  );
}

function postalDeclaration(
  doc: Doc,
  waybill: WaybillRow,
  customs: CustomsInput,
  totals: Totals,
  weightUnit: string,
) {
  const kg = weightUnit === 'kg' ? totals.weight : totals.weight * 0.45359237;
  const small = totals.valueCents <= CN22_MAX_CENTS && kg <= CN22_MAX_KG;
  heading(
    doc,
    small ? 'CUSTOMS DECLARATION CN 22' : 'CUSTOMS DECLARATION CN 23',
    `May be opened officially · Waybill ${waybill.waybillNo} · Tracking ${waybill.trackingNo}`,
  );
  const boxes = (Object.keys(CONTENTS_NAMES) as CustomsContents[])
    .map((kind) => `[${kind === customs.contentsType ? 'X' : ' '}] ${CONTENTS_NAMES[kind]}`)
    .join('   ');
  block(doc, 'CATEGORY OF ITEM', [boxes]);
  if (!small) {
    block(doc, 'SENDER', party(waybill.shipment.sender, customs.senderTaxId));
    block(doc, 'ADDRESSEE', party(waybill.shipment.recipient, customs.receiverTaxId));
  }
  itemRows(doc, customs, weightUnit);
  closing(
    doc,
    `Total value ${money(totals.valueCents, customs.currency)} · Total gross weight ${Math.round(totals.weight * 1000) / 1000} ${weightUnit}`,
    'I certify that the particulars given in this customs declaration are correct and that this item does not contain any dangerous article prohibited by legislation or by postal or customs regulations.',
    'Date and sender’s signature ____________________________',
  );
}

/** A form's foot: its totals, the declaration it makes, and where to sign. */
function closing(doc: Doc, totals: string, declaration: string, signature: string) {
  doc.moveDown(0.3);
  doc.font('Helvetica-Bold').fontSize(7).text(totals, { width: INNER });
  doc.moveDown(0.5);
  doc.font('Helvetica').fontSize(6).text(declaration, { width: INNER });
  doc.moveDown(1.2);
  doc.text(signature, { width: INNER });
}
