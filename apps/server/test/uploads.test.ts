import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { operationLogs, uploads } from '../src/db/schema.ts';
import { useTestApp } from './fixture.ts';
import { badFields, call, fieldMessage, makePng, postMultipart, userIdOf } from './helpers.ts';

const f = useTestApp({ tenants: 2, signIn: [['customer'], []] });

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

describe('image upload', () => {
  it('takes a small PNG and answers a list with one URL that serves it back', async () => {
    const png = makePng(4, 4);
    const res = await uploadFile(png, { token: customer });
    expect(res.statusCode).toBe(200);
    expect(res.json().code).toBe(200);
    const list = res.json().data;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(/^\/api\/uploads\/[A-Za-z0-9_-]+\.png$/);

    const back = await f.ctx.app.inject({ method: 'GET', url: list[0], headers: { host: f.t.host } });
    expect(back.statusCode).toBe(200);
    expect(back.headers['content-type']).toBe('image/png');
    expect(back.headers['x-content-type-options']).toBe('nosniff');
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
    });
  });

  it('takes an upload before sign-in (the registration licence) and logs it', async () => {
    const res = await uploadFile(makePng(), { url: '/api/common/upload/uploadOss', filename: 'licence.png' });
    expect(res.json().code).toBe(200);
    const key = keyOf(res.json().data[0]);
    const [row] = await f.db
      .select()
      .from(uploads)
      .where(and(eq(uploads.tenantId, f.t.tenant.id), eq(uploads.key, key)));
    expect(row?.userId).toBeNull();
    const logged = await f.db
      .select()
      .from(operationLogs)
      .where(and(eq(operationLogs.tenantId, f.t.tenant.id), eq(operationLogs.target, `upload:${key}`)));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ action: 'upload.image', resultCode: 200 });
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

describe('serving uploads', () => {
  it("does not serve one tenant's file under another tenant's host", async () => {
    const res = await uploadFile(makePng());
    const url = res.json().data[0];
    const elsewhere = await f.ctx.app.inject({ method: 'GET', url, headers: { host: f.tenant(1).host } });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().code).toBe(404);
  });

  it('answers 404 for an unknown key and 400 for a key that is not one', async () => {
    const unknown = await f.ctx.app.inject({
      method: 'GET',
      url: '/api/uploads/abcdef.png',
      headers: { host: f.t.host },
    });
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
    const back = await f.ctx.app.inject({ method: 'GET', url, headers: { host: f.t.host } });
    expect(back.headers['content-type']).toBe('application/pdf');
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
