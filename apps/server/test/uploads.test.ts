import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { operationLogs, uploads } from '../src/db/schema.ts';
import { localUploadStore, PENDING_LICENCE, sweepPendingLicences } from '../src/modules/uploads/service.ts';
import { useTestApp } from './fixture.ts';
import { badFields, call, fieldMessage, makePng, postMultipart, userIdOf } from './helpers.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [
    ['admin', 'agent', 'customer', 'direct'],
    ['admin', 'customer'],
  ],
});

let customer: string;

beforeAll(async () => {
  customer = f.as('customer').token as string;
});

const TWO_MB = 2 * 1024 * 1024;

const uploadFile = (
  content: Buffer,
  options: {
    filename?: string;
    type?: string;
    url?: string;
    token?: string;
    language?: 'zh-CN' | 'en-US';
  } = {},
) =>
  postMultipart(
    f.ctx,
    options.url ?? '/api/common/upload/images',
    [
      { name: 'token', value: options.token ?? '' },
      {
        name: 'file',
        filename: options.filename ?? 'avatar.png',
        contentType: options.type ?? 'image/png',
        content,
      },
    ],
    { host: f.t.host, token: options.token, language: options.language },
  );

const keyOf = (url: string) => url.split('/').pop() as string;

/** GET a file as the browser's one HTTP client does: the session in the `accessToken` header. */
const load = (url: string, token?: string, host = f.t.host) =>
  f.ctx.app.inject({ method: 'GET', url, headers: { host, ...(token ? { accesstoken: token } : {}) } });

/** A 1 KB PNG whose header declares `width` x `height` pixels (its pixel data is 2 x 2). */
function pngDeclaring(width: number, height: number): Buffer {
  const png = makePng(2, 2);
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  return png;
}

describe('image upload', () => {
  it('takes a small PNG and answers a list with one URL that serves it back', async () => {
    const png = makePng(4, 4);
    const res = await uploadFile(png, { token: customer });
    expect(res.statusCode).toBe(200);
    expect(res.json().code).toBe(200);
    const list = res.json().data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(/^\/api\/uploads\/[A-Za-z0-9_-]+\.png$/);

    const back = await load(list[0], customer);
    expect(back.statusCode).toBe(200);
    expect(back.headers['content-type']).toBe('image/png');
    expect(back.headers['x-content-type-options']).toBe('nosniff');
    expect(back.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(back.headers['content-disposition']).toBe('inline; filename=avatar.png');
    expect(back.headers['cache-control']).toBe('private, no-store');
    expect(Buffer.compare(back.rawPayload, png)).toBe(0);

    const [row] = await f.db
      .select()
      .from(uploads)
      .where(and(eq(uploads.tenantId, f.t.tenant.id), eq(uploads.key, keyOf(list[0]))));
    expect(row).toMatchObject({
      kind: 'image',
      mime: 'image/png',
      size: png.length,
      originalName: 'avatar.png',
      userId: await userIdOf(f.ctx, f.t.tenant.id, f.t.email('customer')),
      record: null,
      public: false,
    });
  });

  it('takes an upload before sign-in only as a pending registration licence, and logs it', async () => {
    const res = await uploadFile(makePng(), { url: '/api/common/upload/uploadOss', filename: 'licence.png' });
    expect(res.json().code).toBe(200);
    const key = keyOf(res.json().data[0]);
    const [row] = await f.db
      .select()
      .from(uploads)
      .where(and(eq(uploads.tenantId, f.t.tenant.id), eq(uploads.key, key)));
    expect(row).toMatchObject({ userId: null, record: PENDING_LICENCE, public: false });
    // Nobody reads it back without a session, nor with one: it is nobody's file until a registration claims it.
    expect((await load(res.json().data[0])).json().code).toBe(300);
    expect((await load(res.json().data[0], customer)).statusCode).toBe(404);
    const logged = await f.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.tenantId, f.t.tenant.id), eq(operationLogs.target, `upload:${key}`)));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ action: 'upload.image', resultCode: 200 });
  });

  it('refuses a small PNG whose header declares absurd dimensions, signed in or not', async () => {
    for (const [width, height] of [
      [100_000, 100_000],
      [30_000, 10],
      [8_000, 6_000],
    ] as const) {
      const bomb = pngDeclaring(width, height);
      expect(bomb.length).toBeLessThan(1024);
      for (const token of [customer, undefined]) {
        const res = await uploadFile(bomb, { token, language: 'en-US' });
        expect(res.statusCode, `${width}x${height}`).toBe(400);
        expect(badFields(res)).toEqual(['file']);
        expect(fieldMessage(res, 'file')).toBe(
          'File: The image is too large (at most 20000 pixels a side and 40 megapixels)',
        );
      }
      const doc = await uploadFile(bomb, { token: customer, url: '/api/common/upload/documents' });
      expect(badFields(doc)).toEqual(['file']);
    }
    // A large but sane photo is fine.
    expect((await uploadFile(pngDeclaring(6_000, 4_000), { token: customer })).json().code).toBe(200);
  });

  it('answers on every upload path', async () => {
    for (const url of [
      '/api/common/upload/images',
      '/api/common/upload/uploadOss',
      '/api/common/upload/uploadNanJin',
    ]) {
      const res = await uploadFile(makePng(), { url });
      expect(res.json().code, url).toBe(200);
    }
  });

  it('takes a PNG just under 2 MB', async () => {
    const png = makePng(2, 2, 0);
    const padded = makePng(2, 2, TWO_MB - png.length - 12 - 8);
    expect(padded.length).toBeLessThanOrEqual(TWO_MB);
    const res = await uploadFile(padded);
    expect(res.json().code).toBe(200);
  });

  it('refuses an image over 2 MB, naming the file, with the SPEC message', async () => {
    for (const padding of [TWO_MB, 3 * TWO_MB]) {
      const res = await uploadFile(makePng(2, 2, padding));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe(400);
      expect(badFields(res)).toEqual(['file']);
      expect(fieldMessage(res, 'file')).toBe('文件:上传头像图片大小不能超过 2MB!');
      expect(res.json().msg).toBe('文件:上传头像图片大小不能超过 2MB!');
    }
    const en = await uploadFile(makePng(2, 2, TWO_MB), { language: 'en-US' });
    expect(fieldMessage(en, 'file')).toBe('File: The image must be smaller than 2 MB');
  });

  it('refuses a text file named .png, judging by the content', async () => {
    const before = await f.db.select().from(uploads).where(eq(uploads.tenantId, f.t.tenant.id));
    const res = await uploadFile(Buffer.from('just some text, not an image\n'), { filename: 'fake.png' });
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(['file']);
    expect(fieldMessage(res, 'file')).toBe('文件:只能上传 PNG、JPEG、GIF、WEBP 或 ICO 图片');
    const html = await uploadFile(Buffer.from('<html><script>alert(1)</script></html>'), {
      filename: 'x.png',
      type: 'image/png',
    });
    expect(badFields(html)).toEqual(['file']);
    const after = await f.db.select().from(uploads).where(eq(uploads.tenantId, f.t.tenant.id));
    expect(after).toHaveLength(before.length);
  });

  it('names the file when none is sent', async () => {
    const noFile = await postMultipart(f.ctx, '/api/common/upload/images', [{ name: 'token', value: 'x' }], {
      host: f.t.host,
    });
    expect(noFile.statusCode).toBe(400);
    expect(badFields(noFile)).toEqual(['file']);
    expect(fieldMessage(noFile, 'file')).toBe('请选择要上传的文件');
    const json = await call(f.ctx, 'POST', '/api/common/upload/images', { file: 'x' }, { host: f.t.host });
    expect(badFields(json)).toEqual(['file']);
  });
});

describe('pending licences', () => {
  it('sweeps a licence no registration claimed within a day, row and bytes, and keeps the rest', async () => {
    const store = localUploadStore(f.ctx.app.config.DATA_DIR);
    const onDisk = (url: string) => existsSync(join(f.ctx.app.config.DATA_DIR, 'uploads', keyOf(url)));
    const stale = (await uploadFile(makePng(), { filename: 'licence.png' })).json().data[0];
    const fresh = (await uploadFile(makePng(), { filename: 'licence.png' })).json().data[0];
    const signedIn = (await uploadFile(makePng(), { token: customer })).json().data[0];
    await f.db
      .update(uploads)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(inKeys([stale, signedIn]));
    expect(onDisk(stale)).toBe(true);

    expect(await sweepPendingLicences(f.db, store)).toBeGreaterThanOrEqual(1);
    const left = await f.db
      .select({ key: uploads.key })
      .from(uploads)
      .where(inKeys([stale, fresh, signedIn]));
    expect(left.map((r) => r.key).sort()).toEqual([keyOf(fresh), keyOf(signedIn)].sort());
    expect(onDisk(stale)).toBe(false);
    expect(onDisk(fresh)).toBe(true);
    expect(onDisk(signedIn)).toBe(true);
  });
});

const inKeys = (urls: string[]) =>
  sql`${uploads.key} in (${sql.join(
    urls.map((u) => sql`${keyOf(u)}`),
    sql`, `,
  )})`;

describe('serving uploads', () => {
  it("answers 404 for one tenant's file on another tenant's host, whoever asks there", async () => {
    const res = await uploadFile(makePng(), { token: customer });
    const url = res.json().data[0];
    const other = f.tenant(1);
    for (const token of [f.as('admin', other).token, f.as('customer', other).token]) {
      const elsewhere = await load(url, token, other.host);
      expect(elsewhere.statusCode).toBe(404);
      expect(elsewhere.json().code).toBe(404);
    }
    // The owner's session belongs to the owner's tenant: elsewhere it is no session at all.
    expect((await load(url, customer, other.host)).json().code).toBe(300);
  });

  it('answers 300 without a session, 404 to a signed-in caller who may not see it', async () => {
    const url = (await uploadFile(makePng(), { token: customer })).json().data[0];
    const anonymous = await load(url);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe(300);
    // An unclaimed file is its uploader's alone, staff included.
    for (const who of ['direct', 'agent', 'admin'] as const)
      expect((await load(url, f.as(who).token)).statusCode, who).toBe(404);
  });

  it('answers 404 for an unknown key and 400 for a key that is not one', async () => {
    expect((await load('/api/uploads/abcdef.png')).json().code).toBe(300);
    const unknown = await load('/api/uploads/abcdef.png', customer);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 404, data: null });
    const traversal = await f.ctx.app.inject({
      method: 'GET',
      url: '/api/uploads/..%2F..%2Fetc%2Fpasswd',
      headers: { host: f.t.host },
    });
    expect(traversal.statusCode).toBe(400);
    expect(traversal.json().code).toBe(400);
  });
});

describe('document upload', () => {
  const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

  it('takes a PDF from a signed-in user and serves it back as a PDF', async () => {
    const res = await uploadFile(pdf, {
      token: customer,
      url: '/api/common/upload/documents',
      filename: 'bol.pdf',
      type: 'application/pdf',
    });
    expect(res.json().code).toBe(200);
    const [url] = res.json().data;
    expect(url).toMatch(/\.pdf$/);
    const back = await load(url, customer);
    expect(back.headers['content-type']).toBe('application/pdf');
    // Never shown inline: a PDF viewer runs what the file carries.
    expect(back.headers['content-disposition']).toBe('attachment; filename=bol.pdf');
    expect(back.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(back.headers['x-content-type-options']).toBe('nosniff');
    expect(back.headers['cache-control']).toBe('private, no-store');
  });

  it('names the download safely whatever the uploaded name was', async () => {
    const res = await uploadFile(pdf, {
      token: customer,
      url: '/api/common/upload/documents',
      filename: '运单 (1); x.pdf',
      type: 'application/pdf',
    });
    const back = await load(res.json().data[0], customer);
    expect(back.headers['content-disposition']).toBe(
      `attachment; filename="?? (1); x.pdf"; filename*=UTF-8''%E8%BF%90%E5%8D%95%20%281%29%3B%20x.pdf`,
    );
  });

  it('refuses a PDF that carries JavaScript or a launch action, also when compressed or escaped', async () => {
    const hidden = deflateSync(
      Buffer.from('<</Type/Catalog/OpenAction<</S/J#61vaScript/JS(app.alert(1))>>>>'),
    );
    const variants = [
      Buffer.from(
        '%PDF-1.4\n1 0 obj<</Type/Catalog/OpenAction 2 0 R>>endobj\n2 0 obj<</S/JavaScript/JS(app.alert(1))>>endobj\n%%EOF\n',
      ),
      Buffer.from('%PDF-1.4\n1 0 obj<</S/Launch/F(cmd.exe)>>endobj\n%%EOF\n'),
      Buffer.concat([
        Buffer.from(`%PDF-1.5\n1 0 obj<</Type/ObjStm/Filter/FlateDecode/Length ${hidden.length}>>stream\n`),
        hidden,
        Buffer.from('\nendstream\nendobj\n%%EOF\n'),
      ]),
    ];
    for (const content of variants) {
      const res = await uploadFile(content, {
        token: customer,
        url: '/api/common/upload/documents',
        filename: 'bol.pdf',
        type: 'application/pdf',
        language: 'en-US',
      });
      expect(res.statusCode).toBe(400);
      expect(fieldMessage(res, 'file')).toBe(
        'File: PDFs with scripts, launch actions or encryption cannot be uploaded',
      );
    }
  });

  it('refuses other types by content, and callers without a session', async () => {
    const text = await uploadFile(Buffer.from('just text pretending'), {
      token: customer,
      url: '/api/common/upload/documents',
      filename: 'bol.pdf',
      type: 'application/pdf',
      language: 'en-US',
    });
    expect(text.json().code).toBe(400);
    expect(text.json().msg).toBe('Only PDF, PNG, JPEG or WEBP files can be uploaded');
    const anonymous = await uploadFile(pdf, { url: '/api/common/upload/documents', filename: 'bol.pdf' });
    expect(anonymous.json().code).toBe(300);
  });
});

describe('files uploaded before files had owners', () => {
  it('are claimed by the migration for the records that point at them; branding becomes public', async () => {
    const admin = f.as('admin').token as string;
    const shot = (await uploadFile(makePng(), { token: customer })).json().data[0];
    const accounts = (
      await call(
        f.ctx,
        'POST',
        '/api/admin/recharge/receivingAccounts',
        {},
        { host: f.t.host, token: customer },
      )
    ).json().data.list;
    const recharge = await call(
      f.ctx,
      'POST',
      '/api/admin/recharge/submit',
      {
        line: 'truck',
        amount: '10.00',
        method: 'bank_transfer',
        receivingAccountId: accounts[0].id,
        payerName: 'Ann Lee',
        payerCardNumber: '6222 0000 1111 2345',
        screenshotUrl: shot,
      },
      { host: f.t.host, token: customer },
    );
    expect(recharge.json().code).toBe(200);
    const logo = (await uploadFile(makePng(), { token: admin })).json().data[0];
    const site = (
      await call(f.ctx, 'POST', '/api/admin/site/info', {}, { host: f.t.host, token: admin })
    ).json().data;
    expect(
      (
        await call(
          f.ctx,
          'POST',
          '/api/admin/site/save',
          { ...site, logoUrl: logo },
          { host: f.t.host, token: admin },
        )
      ).json().code,
    ).toBe(200);
    const stray = (await uploadFile(makePng())).json().data[0];
    // As they were before the migration: nobody's record, nothing public.
    await f.db
      .update(uploads)
      .set({ record: null, claimedAt: null, public: false })
      .where(inKeys([shot, logo, stray]));

    const migration = readFileSync(
      new URL('../src/db/migrations/0021_rate_limits_and_private_uploads.sql', import.meta.url),
      'utf8',
    );
    for (const statement of migration.split('--> statement-breakpoint').map((s) => s.trim()))
      if (statement.startsWith('UPDATE')) await f.db.execute(sql.raw(statement));

    const rows = await f.db
      .select()
      .from(uploads)
      .where(inKeys([shot, logo, stray]));
    const byKey = new Map(rows.map((r) => [r.key, r]));
    expect(byKey.get(keyOf(shot))).toMatchObject({
      record: `recharge:${recharge.json().data.id}`,
      public: false,
    });
    expect(byKey.get(keyOf(logo))).toMatchObject({ record: `site:${f.t.tenant.id}`, public: true });
    expect(byKey.get(keyOf(stray))).toMatchObject({ record: PENDING_LICENCE, public: false });
    expect((await load(logo)).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await load(shot, admin)).statusCode).toBe(200);
  });
});
