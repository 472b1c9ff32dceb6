import { crc32, createDeflateRaw, deflateSync } from 'node:zlib';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { unzipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { expressChannels } from '../src/db/schema.ts';
import { expressTenant } from './express-fixtures.ts';
import { useTestApp } from './fixture.ts';
import { postMultipart } from './helpers.ts';

/**
 * Every upload that is unpacked (the workbook imports, and PDFs whose streams are searched) is judged
 * by its archive's directory before anything is inflated: a small file that would unpack to hundreds
 * of MB is a 400 naming the limit, and the process does not grow by what the file would have unpacked
 * to, however many arrive at once.
 */
const f = useTestApp({ truck: true, signIn: ['admin', 'customer'], language: 'en-US' });
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MB = 1024 * 1024;

interface ZipPart {
  name: string;
  /** Raw deflate data (method 8). */
  data: Buffer;
  crc: number;
  size: number;
  /** The size written in the headers; the real one unless a test makes the archive lie. */
  declaredSize?: number;
}

/** A zip archive of already deflated entries, written by hand so a test can make it lie. */
function zipOf(parts: ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const size = part.declaredSize ?? part.size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(part.crc, 14);
    local.writeUInt32LE(part.data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(part.crc, 16);
    central.writeUInt32LE(part.data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.data);
    centrals.push(central, name);
    offset += 30 + name.length + part.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const partOf = (name: string, content: Buffer): ZipPart => ({
  name,
  data: deflateSync(content, { level: 9 }).subarray(2, -4),
  crc: crc32(content),
  size: content.length,
});

/** `bytes` of one repeated byte, deflated a megabyte at a time: the test never holds them inflated. */
async function repeatedPart(name: string, bytes: number): Promise<ZipPart> {
  const deflate = createDeflateRaw({ level: 9 });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const block = Buffer.alloc(MB, 0x41);
  let crc = 0;
  for (let left = bytes; left > 0; left -= MB) {
    const piece = left >= MB ? block : block.subarray(0, left);
    crc = crc32(piece, crc);
    if (!deflate.write(piece)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return { name, data: Buffer.concat(chunks), crc, size: bytes };
}

let workbookParts: ZipPart[];
/** A real workbook whose shared strings are replaced by `strings`. */
const workbookWith = (strings: ZipPart) =>
  zipOf([...workbookParts.filter((p) => p.name !== 'xl/sharedStrings.xml'), strings]);

let honestBomb: Buffer;
let lyingBomb: Buffer;
let ratioBomb: Buffer;
let manyParts: Buffer;

beforeAll(async () => {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Orders').addRow(['Receiver', 'City']).commit();
  wb.getWorksheet('Orders')?.addRow(['Pat', 'Dallas']);
  const files = unzipSync(new Uint8Array(await wb.xlsx.writeBuffer()));
  workbookParts = Object.entries(files)
    .filter(([name]) => !name.endsWith('/'))
    .map(([name, content]) => partOf(name, Buffer.from(content)));
  const strings = await repeatedPart('xl/sharedStrings.xml', 200 * MB);
  honestBomb = workbookWith(strings);
  // The same data, its headers claiming 2 KB: cut off while inflating, at the size it claimed.
  lyingBomb = workbookWith({ ...strings, declaredSize: 2048 });
  // 5 MB from about 5 KB, under every size limit, a thousand to one.
  ratioBomb = workbookWith(await repeatedPart('xl/sharedStrings.xml', 5 * MB));
  manyParts = zipOf([
    ...workbookParts,
    ...Array.from({ length: 600 }, (_, i) => partOf(`xl/media/p${i}.bin`, Buffer.from('x'))),
  ]);
  expect(honestBomb.length).toBeLessThan(400 * 1024);
});

/** The customer's warehouse, which an express batch ships from. */
let shipFrom: number;

function upload(url: string, content: Buffer, who: 'admin' | 'customer', language = 'en-US' as const) {
  const fields = url.startsWith('/api/express/order/')
    ? [{ name: 'address_id', value: String(shipFrom) }]
    : [];
  const file = { name: 'file', filename: 'orders.xlsx', contentType: XLSX, content };
  return postMultipart(f.ctx, url, [...fields, file], {
    host: f.t.host,
    token: f.as(who).token,
    language,
  });
}

/** Every route that reads an uploaded workbook with a session, with who may call it (the API key's below). */
async function workbookRoutes(): Promise<{ url: string; who: 'admin' | 'customer' }[]> {
  await expressTenant(f.db, f.t.tenant.id, {});
  ({ id: shipFrom } = await f.as('customer').ok('/api/express/address/save', {
    kind: 'sender',
    name: 'Jane Doe',
    company: 'Acme Warehouse',
    address1: '100 Main St',
    zipcode: '92551',
    city: 'Moreno Valley',
    state: 'CA',
    phone: '9095551234',
  }));
  const [channel] = await f.db
    .select({ id: expressChannels.id })
    .from(expressChannels)
    .where(and(eq(expressChannels.tenantId, f.t.tenant.id)))
    .limit(1);
  const products = await f.as('admin').ok('/api/admin/product/list', { page: 1, limit: 10 });
  const productId = products.list[0].id;
  return [
    { url: '/api/admin/order/importDataCheck', who: 'customer' },
    { url: '/api/admin/order/batchOrdering', who: 'customer' },
    { url: '/api/express/order/importDataCheck', who: 'customer' },
    { url: '/api/express/order/batchOrdering', who: 'customer' },
    { url: '/api/admin/address/import', who: 'customer' },
    { url: '/api/express/address/import', who: 'customer' },
    { url: '/api/express/tracking/import', who: 'admin' },
    { url: `/api/admin/freightRule/import?productId=${productId}`, who: 'admin' },
    { url: `/api/admin/expressZone/import?channelId=${channel?.id}`, who: 'admin' },
    { url: `/api/admin/channelPrice/import?channelId=${channel?.id}`, who: 'admin' },
    { url: '/api/admin/expressChannel/import', who: 'admin' },
  ];
}

describe('decompression bombs', () => {
  it('every workbook import refuses a file that unpacks past the limit, naming the file and the limit', async () => {
    for (const { url, who } of await workbookRoutes()) {
      const res = await upload(url, honestBomb, who);
      expect(res.statusCode, url).toBe(400);
      const body = res.json();
      expect(body.msg, url).toBe('The file unpacks to more than 40 MB; split it into smaller files');
      expect(body.data?.fields?.[0]?.field ?? body.data?.field ?? 'file', url).toBe('file');
    }
    const zh = await upload('/api/admin/order/importDataCheck', honestBomb, 'customer', 'zh-CN' as never);
    expect(zh.json().msg).toBe('文件解压后超过 40MB,请拆分为几个较小的文件');
  });

  it('refuses a compression ratio no workbook has, too many parts, and an archive lying about its sizes', async () => {
    const ratio = await upload('/api/admin/order/importDataCheck', ratioBomb, 'customer');
    expect(ratio.json()).toMatchObject({ code: 400 });
    expect(ratio.json().msg).toContain('compressed more than 100 to 1');
    const many = await upload('/api/admin/order/importDataCheck', manyParts, 'customer');
    expect(many.json().msg).toContain('more than 500 parts');
    const lying = await upload('/api/admin/order/importDataCheck', lyingBomb, 'customer');
    expect(lying.statusCode).toBe(400);
    expect(lying.json().msg).toBe('Please upload an xlsx file');
  });

  it('eight bombs at once through the API key upload leave the process within a bounded growth', async () => {
    const key = await f.as('customer').ok('/api/admin/apiKey/create', { name: 'ERP', scopes: ['upload'] });
    const send = (content: Buffer) => {
      const boundary = '----bomb';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="o.xlsx"\r\nContent-Type: ${XLSX}\r\n\r\n`,
        ),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return f.ctx.app.inject({
        method: 'POST',
        url: '/shipment/uploadapi',
        headers: {
          host: f.t.host,
          'accept-language': 'en-US',
          'content-type': `multipart/form-data; boundary=${boundary}`,
          apiid: key.prefix,
          userkey: key.key,
        },
        payload,
      });
    };
    // The warm-up answers once, so what is measured is the bombs, not the first use of the routes.
    expect((await send(honestBomb)).statusCode).toBe(400);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 5);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => send(i % 2 === 0 ? honestBomb : lyingBomb)),
    );
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    for (const res of answers) expect(res.statusCode).toBe(400);
    // Unpacked, each would have been 200 MB (and several times that parsed); refused, they cost what
    // the lying ones inflate before they are cut off (2 KB each) plus the uploads themselves.
    expect(peak - before).toBeLessThan(64 * MB);
    const health = await f.ctx.app.inject({ method: 'GET', url: '/api/health', headers: { host: f.t.host } });
    expect(health.statusCode).toBe(200);
  });

  it('a PDF whose compressed stream unpacks past the limit is refused naming the limit', async () => {
    const stream = await repeatedPart('s', 40 * MB);
    // A zlib stream: header, the deflate data, and its checksum (never reached).
    const zlibStream = Buffer.concat([Buffer.from([0x78, 0xda]), stream.data, Buffer.alloc(4)]);
    const pdf = Buffer.concat([
      Buffer.from('%PDF-1.4\n1 0 obj\n<< /Length '),
      Buffer.from(String(zlibStream.length)),
      Buffer.from(' /Filter /FlateDecode >>\nstream\n'),
      zlibStream,
      Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n'),
    ]);
    const res = await postMultipart(
      f.ctx,
      '/api/common/upload/documents',
      [{ name: 'file', filename: 'proof.pdf', contentType: 'application/pdf', content: pdf }],
      { host: f.t.host, token: f.as('customer').token, language: 'en-US' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().msg).toBe(
      'A part of this PDF unpacks to more than 32 MB and cannot be checked; upload a smaller file',
    );
  });
});
