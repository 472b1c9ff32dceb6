import type { ExpressAddress } from '@freight/contracts/express-quotes';
import type { WaybillRow } from './service.ts';

/** 4 × 6 inches in PDF points (72 a inch): the thermal label size carriers print. */
const WIDTH = 288;
const HEIGHT = 432;
const MARGIN = 12;

/** A Code 128 barcode of the tracking number, as a PNG the PDF embeds. */
async function barcode(text: string): Promise<Buffer> {
  // Loaded when a label is first printed, as the PDF writer is.
  const { toBuffer } = await import('bwip-js/node');
  return toBuffer({ bcid: 'code128', text, scale: 3, height: 14, includetext: false });
}

const addressLines = (a: ExpressAddress) =>
  [
    a.name,
    a.company,
    a.address1,
    a.address2,
    [a.city, a.state, a.zipcode].filter(Boolean).join(' '),
    a.country,
    a.phone ? `+${a.dialCode} ${a.phone}` : '',
  ].filter(Boolean);

/** What a label says, whichever way it is printed: the PDF below and the ZPL of zpl.ts read the same. */
export interface LabelContent {
  /** Carrier and service, across the top. */
  heading: string;
  /** The channel's English name and code. */
  channel: string;
  from: string[];
  to: string[];
  /** Reference; pieces, weight and zone; waybill number and the day it was booked (UTC, as its number). */
  details: [string, string, string];
  trackingNo: string;
}

export function labelContent(w: WaybillRow): LabelContent {
  const { sender, recipient, parcels } = w.shipment;
  const pieces = parcels.reduce((n, p) => n + p.quantity, 0);
  const unit = w.breakdown.unitSystem === 'kg_cm' ? 'KG' : 'LB';
  return {
    heading: `${w.channel.carrier} ${w.channel.service}`,
    channel: `${w.channel.nameEn} · ${w.channel.code}`,
    from: addressLines(sender),
    to: addressLines(recipient),
    details: [
      `REF: ${w.reference || '-'}`,
      `PCS: ${pieces}   WT: ${w.breakdown.billableWeight} ${unit}   ZONE: ${w.breakdown.zone}`,
      `WAYBILL: ${w.waybillNo}   DATE: ${w.createdAt.toISOString().slice(0, 10)}`,
    ],
    trackingNo: w.trackingNo,
  };
}

/**
 * One 4 × 6 inch page per waybill: sender, recipient, channel, reference, weight and the tracking
 * number as a Code 128 barcode, all in one PDF so many labels print at once. Addresses are written in
 * English (SPEC section 5), so the PDF's built-in Helvetica covers every character.
 */
export async function waybillLabels(waybills: readonly WaybillRow[]): Promise<Buffer> {
  const codes = await Promise.all(waybills.map((w) => barcode(w.trackingNo)));
  // Loaded when a label is first printed: the PDF writer costs a start about 0.15 s.
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: [WIDTH, HEIGHT], margin: MARGIN, autoFirstPage: false });
  doc.info.Title = waybills.length === 1 ? `Label ${waybills[0]?.waybillNo}` : `Labels (${waybills.length})`;
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const inner = WIDTH - 2 * MARGIN;
  waybills.forEach((w, i) => {
    doc.addPage();
    const label = labelContent(w);
    // Carrier and service across the top, the way a carrier's own label leads.
    doc.font('Helvetica-Bold').fontSize(14).text(label.heading, MARGIN, MARGIN, { width: inner });
    doc.font('Helvetica').fontSize(8).text(label.channel, { width: inner });
    doc
      .moveTo(MARGIN, 50)
      .lineTo(WIDTH - MARGIN, 50)
      .stroke();
    doc.font('Helvetica-Bold').fontSize(7).text('FROM', MARGIN, 56);
    doc.font('Helvetica').fontSize(8).text(label.from.join('\n'), MARGIN, 65, { width: inner });
    doc
      .moveTo(MARGIN, 140)
      .lineTo(WIDTH - MARGIN, 140)
      .stroke();
    doc.font('Helvetica-Bold').fontSize(7).text('SHIP TO', MARGIN, 146);
    doc.font('Helvetica-Bold').fontSize(12).text(label.to.join('\n'), MARGIN, 156, { width: inner });
    doc
      .moveTo(MARGIN, 262)
      .lineTo(WIDTH - MARGIN, 262)
      .stroke();
    const [reference, measures, numbers] = label.details;
    doc
      .font('Helvetica')
      .fontSize(8)
      .text(reference, MARGIN, 268, { width: inner })
      .text(measures, { width: inner })
      .text(numbers, { width: inner });
    doc.image(codes[i] as Buffer, MARGIN + 10, 310, { fit: [inner - 20, 70], align: 'center' });
    doc
      .font('Helvetica-Bold')
      .fontSize(11)
      .text(label.trackingNo, MARGIN, 388, { width: inner, align: 'center' });
    doc.font('Helvetica').fontSize(6).text(`TRACKING #`, MARGIN, 402, { width: inner, align: 'center' });
  });
  doc.end();
  return done;
}
