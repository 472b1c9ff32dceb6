import { CarrierCallError } from './connection.ts';
import type { CarrierLabel } from './parcel.ts';

/** 4 × 6 inches in PDF points: the label stock carriers print on. */
const PAGE_WIDTH = 288;
const PAGE_HEIGHT = 432;

/** A label image past this many pixels is not a label: refused before it is decoded. */
const MAX_LABEL_PIXELS = 4_000 * 4_000;

/** A GIF's frame as a PNG, which PDF writers embed: UPS draws its labels as GIFs. */
async function gifToPng(bytes: Buffer): Promise<Buffer> {
  const [{ GifReader }, { PNG }] = await Promise.all([import('omggif'), import('pngjs')]);
  let reader: InstanceType<typeof GifReader>;
  try {
    reader = new GifReader(bytes);
  } catch (error) {
    throw new CarrierCallError(
      'malformed',
      `the label GIF does not read: ${(error as Error).message}`,
      false,
    );
  }
  const { width, height } = reader;
  if (width < 1 || height < 1 || width * height > MAX_LABEL_PIXELS)
    throw new CarrierCallError('malformed', `the label GIF is ${width} × ${height} pixels`, false);
  const png = new PNG({ width, height });
  reader.decodeAndBlitFrameRGBA(0, png.data);
  return PNG.sync.write(png);
}

/**
 * A bought label as one PDF of 4 × 6 inch pages, a page per parcel: a PDF label is kept as the carrier
 * drew it, an image (UPS's GIF) fills its page, turned upright when the carrier drew it lying down.
 * ZPL is not a page: it is kept as ZPL and never comes here.
 */
export async function labelPdf(label: CarrierLabel['label']): Promise<Buffer> {
  const { PDFDocument, degrees } = await import('pdf-lib');
  const out = await PDFDocument.create();
  for (const part of label) {
    if (part.format === 'pdf') {
      const source = await PDFDocument.load(part.bytes).catch((error: Error) => {
        throw new CarrierCallError('malformed', `the label PDF does not read: ${error.message}`, false);
      });
      for (const page of await out.copyPages(source, source.getPageIndices())) out.addPage(page);
      continue;
    }
    if (part.format === 'zpl') throw new Error('a ZPL label has no PDF page');
    const image =
      part.format === 'gif' ? await out.embedPng(await gifToPng(part.bytes)) : await out.embedPng(part.bytes);
    const page = out.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    // UPS's 4 × 6 GIF is drawn lying on its side, its top to the left: turned a quarter clockwise.
    const lying = image.width > image.height;
    const across = lying ? image.height : image.width;
    const down = lying ? image.width : image.height;
    const scale = Math.min(PAGE_WIDTH / across, PAGE_HEIGHT / down);
    const width = image.width * scale;
    const height = image.height * scale;
    if (lying) {
      // Turned about its lower left corner, it reaches right by its height and down by its width.
      page.drawImage(image, {
        x: (PAGE_WIDTH - height) / 2,
        y: (PAGE_HEIGHT + width) / 2,
        width,
        height,
        rotate: degrees(-90),
      });
    } else {
      page.drawImage(image, { x: (PAGE_WIDTH - width) / 2, y: (PAGE_HEIGHT - height) / 2, width, height });
    }
  }
  if (out.getPageCount() === 0) throw new CarrierCallError('malformed', 'the carrier gave no label', false);
  return Buffer.from(await out.save());
}

/** Many labels' PDFs as one file, their pages in the order given: one print of many waybills. */
export async function joinPdfs(files: readonly Buffer[]): Promise<Buffer> {
  const { PDFDocument } = await import('pdf-lib');
  const out = await PDFDocument.create();
  for (const file of files) {
    const source = await PDFDocument.load(file);
    for (const page of await out.copyPages(source, source.getPageIndices())) out.addPage(page);
  }
  return Buffer.from(await out.save());
}
