import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './fixture.ts';
import { call, createTenant, createTestApp } from './helpers.ts';

const f = useTestApp();

beforeAll(async () => {
  await call(
    f.ctx,
    'POST',
    '/api/admin/auth/getVerificationCode',
    { email: f.t.email('admin') },
    { host: f.t.host },
  );
  await f.ctx.app.afterAnswerSettled();
});

describe('dev mailbox', () => {
  it('shows the mail to a browser on this machine', async () => {
    const res = await f.ctx.app.inject({
      method: 'GET',
      url: '/api/dev/mailbox',
      headers: { host: f.t.host },
    });
    expect(res.json().data.list[0].to).toBe(f.t.email('admin'));
  });

  it('shows nothing to anyone else, so a forgotten NODE_ENV never leaks codes', async () => {
    const res = await f.ctx.app.inject({
      method: 'GET',
      url: '/api/dev/mailbox',
      headers: { host: f.t.host },
      remoteAddress: '203.0.113.9',
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain(f.t.email('admin'));
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
    const res = await f.ctx.app.inject({
      method: 'GET',
      url: '/api/dev/mailbox',
      headers: { host: f.t.host, accept: 'text/html,application/xhtml+xml' },
    });
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('Dev mailbox');
    expect(res.body).toContain(f.t.email('admin'));
    expect(res.body).toMatch(/\b\d{6}\b/);
  });
});
