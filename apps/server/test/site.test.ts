import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { tenants } from '../src/db/schema.ts';
import { createTenant as createBareTenant, DEFAULT_TENANT_CODE } from '../src/modules/site/service.ts';
import { useTestApp } from './fixture.ts';
import { badFields, call, fieldMessage, lastMailTo, signInAs, uploadFor } from './helpers.ts';

const f = useTestApp({ tenants: 2, signIn: [['admin', 'editor', 'customer'], []] });

let admin: string;
let editor: string;
let customer: string;
/** The logo staff uploaded for the site configuration. */
let logo: string;

beforeAll(async () => {
  // This file's database is its own, so it may hold the default tenant that local and unknown hosts use.
  await createBareTenant(f.db, {
    code: DEFAULT_TENANT_CODE,
    name: 'Default portal',
    branding: { buttonColor: '#00AA00' },
  });
  admin = f.as('admin').token as string;
  editor = f.as('editor').token as string;
  customer = f.as('customer').token as string;
  logo = await uploadFor(f.ctx, f.t.host, admin);
});

const hostConfig = (host: string, url = '/api/admin/auth/getHostConfig') =>
  call(f.ctx, 'POST', url, {}, { host });

const siteBody = (overrides: Record<string, unknown> = {}) => ({
  siteName: '测试站点',
  siteNameEn: 'Test site',
  buttonColor: '#1A2B3C',
  logoUrl: logo,
  logoCollapsedUrl: null,
  faviconUrl: null,
  copyright: '© Test',
  copyrightEn: '© Test, in English',
  filingNumber: '',
  filingHosts: [],
  ...overrides,
});

const save = (body: object, token = admin, language: 'zh-CN' | 'en-US' = 'zh-CN', host = f.t.host) =>
  call(f.ctx, 'POST', '/api/admin/site/save', body, { host, token, language });

describe('branding by host', () => {
  it("answers the tenant's branding for its host on both paths", async () => {
    for (const url of ['/api/admin/auth/getHostConfig', '/api/common/params/getInfoByDomain']) {
      const res = await hostConfig(f.tenant(1).host, url);
      expect(res.json().code).toBe(200);
      expect(res.json().data).toMatchObject({
        tenant: f.tenant(1).tenant.code,
        siteName: f.tenant(1).tenant.name,
        buttonColor: '#FF6D1F',
        color_data: { button: '#FF6D1F' },
        filingNumber: '',
      });
    }
  });

  it('reads the host without regard to case or port', async () => {
    const res = await hostConfig(`${f.tenant(1).host.toUpperCase()}:8443`);
    expect(res.json().data.tenant).toBe(f.tenant(1).tenant.code);
  });

  it('gives localhost, IP addresses and unknown hosts the default tenant', async () => {
    for (const host of [
      'localhost',
      'localhost:8083',
      '127.0.0.1:8083',
      '[::1]:8083',
      'unknown.example.org',
    ]) {
      const res = await hostConfig(host);
      expect(res.json().data, host).toMatchObject({
        tenant: DEFAULT_TENANT_CODE,
        siteName: 'Default portal',
        buttonColor: '#00AA00',
      });
    }
  });
});

describe('a new tenant', () => {
  it('starts with a copyright line in both languages, naming the site in each', async () => {
    // The year is the server's at the moment of creation: the one before or after, should New Year fall between.
    const yearBefore = new Date().getUTCFullYear();
    const code = `bilingual-${Date.now()}`;
    const tenant = await createBareTenant(f.db, {
      code,
      name: '货运门户',
      nameEn: 'Freight Portal',
    });
    const year = Number(/© (\d{4})/.exec(String(tenant.branding.copyright))?.[1]);
    expect([yearBefore, new Date().getUTCFullYear()]).toContain(year);
    expect(tenant.branding).toMatchObject({
      siteName: '货运门户',
      siteNameEn: 'Freight Portal',
      copyright: `© ${year} 货运门户 版权所有`,
      copyrightEn: `© ${year} Freight Portal. All rights reserved.`,
    });
    // One name only: the English line names the site as it is.
    const plainBefore = new Date().getUTCFullYear();
    const plain = await createBareTenant(f.db, { code: `${code}-plain`, name: 'Freight portal' });
    const plainYear = [plainBefore, new Date().getUTCFullYear()].find(
      (y) => plain.branding.copyrightEn === `© ${y} Freight portal. All rights reserved.`,
    );
    expect(plain.branding.copyrightEn).toBe(
      `© ${plainYear ?? plainBefore} Freight portal. All rights reserved.`,
    );
    expect(plain.branding.siteNameEn).toBe('');
  });
});

describe('site configuration', () => {
  it('saves the branding and the host answers it at once', async () => {
    const res = await save(siteBody());
    expect(res.json().code).toBe(200);
    const config = await hostConfig(f.t.host);
    expect(config.json().data).toMatchObject({
      siteName: '测试站点',
      siteNameEn: 'Test site',
      buttonColor: '#1A2B3C',
      logoUrl: logo,
      copyright: '© Test',
      copyrightEn: '© Test, in English',
    });
    const info = await call(f.ctx, 'POST', '/api/admin/site/info', {}, { host: f.t.host, token: admin });
    expect(info.json().data).toEqual(siteBody());
    const [row] = await f.db.select().from(tenants).where(eq(tenants.id, f.t.tenant.id));
    expect(row?.branding.siteName).toBe('测试站点');
  });

  it('makes a saved logo and favicon public: anyone loads them, cached for long, before signing in', async () => {
    const favicon = await uploadFor(f.ctx, f.t.host, admin);
    expect((await save(siteBody({ faviconUrl: favicon }))).json().code).toBe(200);
    for (const url of [logo, favicon]) {
      const res = await f.ctx.app.inject({ method: 'GET', url, headers: { host: f.t.host } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    }
    // Public within its tenant only.
    const elsewhere = await f.ctx.app.inject({
      method: 'GET',
      url: logo,
      headers: { host: f.tenant(1).host },
    });
    expect(elsewhere.statusCode).not.toBe(200);
  });

  it("refuses a logo that is not the saving staff member's own upload, naming the field", async () => {
    for (const [field, url] of [
      ['logoUrl', 'https://probe.invalid/logo.png'],
      ['faviconUrl', await uploadFor(f.ctx, f.t.host, customer)],
      ['logoCollapsedUrl', '/api/uploads/unknown.png'],
    ] as const) {
      const res = await save(siteBody({ [field]: url }), admin, 'en-US');
      expect(res.statusCode, field).toBe(400);
      expect(badFields(res)).toEqual([field]);
    }
  });

  it('names the site in the language of each mail it sends', async () => {
    await save(siteBody({ siteName: '测试站点', siteNameEn: 'Test site' }));
    const ask = async (email: string, language: 'zh-CN' | 'en-US') => {
      const res = await call(
        f.ctx,
        'POST',
        '/api/admin/auth/getVerificationCode',
        { email, purpose: 'register' },
        { host: f.t.host, language },
      );
      expect(res.json().code).toBe(200);
      return (await lastMailTo(f.ctx, f.t.tenant.id, email))?.subject;
    };
    expect(await ask(`en-${Date.now()}@example.com`, 'en-US')).toBe('Test site verification code');
    expect(await ask(`zh-${Date.now()}@example.com`, 'zh-CN')).toBe('测试站点 验证码');
  });

  it('leaves the other tenants alone', async () => {
    await save(siteBody({ siteName: 'Only mine' }));
    expect((await hostConfig(f.tenant(1).host)).json().data.siteName).toBe(f.tenant(1).tenant.name);
    expect((await hostConfig('localhost')).json().data.siteName).toBe('Default portal');
  });

  it('shows the filing number only on the hosts configured for it', async () => {
    await save(siteBody({ filingNumber: '沪ICP备12345678号', filingHosts: [f.t.host.toUpperCase()] }));
    expect((await hostConfig(f.t.host)).json().data.filingNumber).toBe('沪ICP备12345678号');
    expect((await hostConfig(`${f.t.host}:443`)).json().data.filingNumber).toBe('沪ICP备12345678号');
    // The same tenant reached under another name of its host shows none.
    const dashed = await hostConfig(f.t.tenant.code);
    expect(dashed.json().data.tenant).toBe(f.t.tenant.code);
    expect(dashed.json().data.filingNumber).toBe('');
    await save(siteBody({ filingNumber: '沪ICP备12345678号', filingHosts: [] }));
    expect((await hostConfig(f.t.host)).json().data.filingNumber).toBe('');
  });

  it('refuses a site name over 20 characters with the site-name message', async () => {
    const zh = await save(siteBody({ siteName: '站'.repeat(21) }));
    expect(zh.statusCode).toBe(400);
    expect(badFields(zh)).toEqual(['siteName']);
    expect(fieldMessage(zh, 'siteName')).toBe('站点名称最多 20 个字符');
    expect(zh.json().msg).toBe('站点名称最多 20 个字符');
    const en = await save(siteBody({ siteName: 'x'.repeat(21) }), admin, 'en-US');
    expect(fieldMessage(en, 'siteName')).toBe('The site name takes at most 20 characters');
    expect((await save(siteBody({ siteName: '站'.repeat(20) }))).json().code).toBe(200);
  });

  it('refuses a colour that is not #RRGGBB', async () => {
    for (const buttonColor of ['red', '#FFF', '#GGGGGG', 'FF6D1F']) {
      const res = await save(siteBody({ buttonColor }), admin, 'en-US');
      expect(badFields(res), buttonColor).toEqual(['buttonColor']);
      expect(fieldMessage(res, 'buttonColor')).toBe('Button colour: Please enter a colour such as #FF6D1F');
    }
    const zh = await save(siteBody({ buttonColor: 'red' }));
    expect(fieldMessage(zh, 'buttonColor')).toBe('按钮颜色:请输入正确的颜色值,如 #FF6D1F');
  });

  it('names missing fields and an empty site name', async () => {
    const res = await save({ siteName: '' });
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(
      expect.arrayContaining(['siteName', 'buttonColor', 'copyright', 'filingNumber', 'filingHosts']),
    );
    expect(fieldMessage(res, 'siteName')).toBe('站点名称不能为空');
  });

  it('lets the editor read and save the site', async () => {
    expect(
      (await call(f.ctx, 'POST', '/api/admin/site/info', {}, { host: f.t.host, token: editor })).json().code,
    ).toBe(200);
    expect((await save(siteBody({ siteName: 'By the editor' }), editor)).json().code).toBe(200);
    expect((await hostConfig(f.t.host)).json().data.siteName).toBe('By the editor');
  });

  it('refuses the customer with code 401, and a caller without a session with code 300', async () => {
    const info = await call(f.ctx, 'POST', '/api/admin/site/info', {}, { host: f.t.host, token: customer });
    expect(info.json().code).toBe(401);
    const saved = await save(siteBody({ siteName: 'Hijacked' }), customer);
    expect(saved.statusCode).toBe(403);
    expect(saved.json().code).toBe(401);
    const anonymous = await call(f.ctx, 'POST', '/api/admin/site/save', siteBody(), { host: f.t.host });
    expect(anonymous.json().code).toBe(300);
    expect((await hostConfig(f.t.host)).json().data.siteName).not.toBe('Hijacked');
  });

  it("does not let a token of one tenant save another tenant's site", async () => {
    const res = await save(siteBody({ siteName: 'Cross' }), admin, 'zh-CN', f.tenant(1).host);
    expect(res.json().code).toBe(300);
    expect((await hostConfig(f.tenant(1).host)).json().data.siteName).toBe(f.tenant(1).tenant.name);
  });
});

describe('batch-order buttons per account', () => {
  const save = (token: string, userIds: unknown, host = f.t.host) =>
    call(f.ctx, 'POST', '/api/admin/site/batchOrder/save', { userIds }, { host, token });
  const config = (token: string) =>
    call(f.ctx, 'POST', '/api/admin/admin/quotationConfig', {}, { host: f.t.host, token });

  it('hides the buttons for the chosen accounts and shows them again when removed', async () => {
    const options = await call(
      f.ctx,
      'POST',
      '/api/admin/site/userOptions',
      { keyword: 'customer@' },
      { host: f.t.host, token: admin },
    );
    const found = options.json().data.list as { id: number; email: string }[];
    expect(found.map((u) => u.email)).toEqual([f.t.email('customer')]);
    const customerId = found[0]?.id;

    expect((await save(admin, [customerId])).json().code).toBe(200);
    expect((await config(customer)).json().data).toMatchObject({ showBatchOrder: false });
    expect((await config(admin)).json().data).toMatchObject({ showBatchOrder: true });
    const info = await call(
      f.ctx,
      'POST',
      '/api/admin/site/batchOrder/info',
      {},
      { host: f.t.host, token: admin },
    );
    expect(info.json().data.users).toEqual([
      expect.objectContaining({ id: customerId, email: f.t.email('customer') }),
    ]);

    expect((await save(admin, [])).json().code).toBe(200);
    expect((await config(customer)).json().data).toMatchObject({ showBatchOrder: true });
  });

  it("refuses another tenant's user and a malformed list, naming the field and keeping the list", async () => {
    await save(admin, []);
    const otherUser = await call(
      f.ctx,
      'POST',
      '/api/admin/site/userOptions',
      { keyword: 'customer@' },
      { host: f.tenant(1).host, token: await signInAs(f.ctx, f.tenant(1), 'admin') },
    );
    const foreignId = otherUser.json().data.list[0].id as number;
    const refused = await save(admin, [foreignId]);
    expect(refused.json().code).toBe(400);
    expect(badFields(refused)).toEqual(['userIds']);
    expect(badFields(await save(admin, ['x']))).toEqual(['userIds.0']);
    const info = await call(
      f.ctx,
      'POST',
      '/api/admin/site/batchOrder/info',
      {},
      { host: f.t.host, token: admin },
    );
    expect(info.json().data.users).toEqual([]);
  });

  it('lets only those who may save the site change the list', async () => {
    expect((await save(customer, [])).json().code).toBe(401);
    expect((await save(editor, [])).json().code).toBe(200);
    const noSession = await call(
      f.ctx,
      'POST',
      '/api/admin/site/batchOrder/save',
      { userIds: [] },
      { host: f.t.host },
    );
    expect(noSession.json().code).toBe(300);
  });
});
