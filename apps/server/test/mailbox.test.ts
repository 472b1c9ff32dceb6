import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, createTestApp, type TestContext, type TestTenant } from './helpers.ts';

let ctx: TestContext;
let t: TestTenant;
beforeAll(async () => {
  ctx = await createTestApp();
  t = await createTenant(ctx);
  await call(
    ctx,
    'POST',
    '/api/admin/auth/getVerificationCode',
    { email: t.email('admin') },
    { host: t.host },
  );
});
afterAll(() => ctx.close());

describe('dev mailbox', () => {
  it('shows the mail to a browser on this machine', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/dev/mailbox', headers: { host: t.host } });
    expect(res.json().data.list[0].to).toBe(t.email('admin'));
  });

  it('shows nothing to anyone else, so a forgotten NODE_ENV never leaks codes', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/dev/mailbox',
      headers: { host: t.host },
      remoteAddress: '203.0.113.9',
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain(t.email('admin'));
  });

  it('does not exist when SMTP is configured', async () => {
    const smtpCtx = await createTestApp({ config: { SMTP_URL: 'smtp://127.0.0.1:1' } });
    const other = await createTenant(smtpCtx);
    const res = await smtpCtx.app.inject({
      method: 'GET',
      url: '/api/dev/mailbox',
      headers: { host: other.host },
    });
    expect(res.statusCode).toBe(404);
    await smtpCtx.close();
  });
});

describe('dev mailbox page', () => {
  it('shows a browser the mail as a page, with its text escaped', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/dev/mailbox',
      headers: { host: t.host, accept: 'text/html,application/xhtml+xml' },
    });
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('Dev mailbox');
    expect(res.body).toContain(t.email('admin'));
    expect(res.body).toMatch(/\b\d{6}\b/);
  });
});
