import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { outbox, verificationCodes } from '../src/db/schema.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import { createMailer } from '../src/modules/mail/service.ts';
import { useTestApp } from './fixture.ts';
import { addUser, call, codeIn } from './helpers.ts';

/** A real SMTP server on a free local port; every message it accepts is parsed and kept. */
function startSmtp(port = 0) {
  const received: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    secure: false,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  const listening = new Promise<number>((resolve, reject) => {
    const net = server.listen(port, '127.0.0.1', () => resolve((net.address() as AddressInfo).port));
    net.once('error', reject);
  });
  return {
    received,
    listening,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let smtp: ReturnType<typeof startSmtp>;
let port: number;

// Registered first, so it runs after the fixture has closed the app.
afterAll(() => smtp.close());
const f = useTestApp({
  async app() {
    smtp = startSmtp();
    port = await smtp.listening;
    return { mailer: createMailer(`smtp://127.0.0.1:${port}`, 'Portal <no-reply@example.com>') };
  },
});

const mailFor = (to: string) => smtp.received.filter((m) => m.to && JSON.stringify(m.to).includes(to)).at(-1);

const outboxRows = (to: string) =>
  f.db
    .select()
    .from(outbox)
    .where(and(eq(outbox.tenantId, f.t.tenant.id), eq(outbox.to, to)));

describe('mail over SMTP', () => {
  it('delivers the sign-in code by SMTP, and the code from the mail signs in', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const res = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/getVerificationCode',
      { email },
      { host: f.t.host },
    );
    expect(res.json().code).toBe(200);
    await f.ctx.app.afterAnswerSettled();

    const mail = mailFor(email);
    expect(mail).toBeDefined();
    expect(mail?.from?.value[0]?.address).toBe('no-reply@example.com');
    expect(mail?.from?.value[0]?.name).toBe('Portal');
    expect(mail?.subject).toBe(`${f.t.tenant.branding.siteName} 验证码`);
    const code = codeIn(mail?.text);

    const [row] = await outboxRows(email);
    expect(row?.status).toBe('sent');
    expect(row?.sentAt).toBeInstanceOf(Date);

    const login = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/login',
      { email, password: sha256Hex(f.t.password), code },
      { host: f.t.host },
    );
    expect(login.json().code).toBe(200);
    expect(login.json().data.token).toEqual(expect.any(String));
  });

  it('delivers the password reset link by SMTP', async () => {
    const { email } = await addUser(f.ctx, f.t);
    const res = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/retrievePassword',
      { email },
      { host: f.t.host, language: 'en-US' },
    );
    expect(res.json().code).toBe(200);
    await f.ctx.app.afterAnswerSettled();
    const mail = mailFor(email);
    expect(mail?.subject).toBe(`${f.t.tenant.branding.siteName} password reset`);
    expect(mail?.text).toMatch(
      new RegExp(`http://${f.t.host.replace('.', '\\.')}/forgotPassword\\?token=\\S+`),
    );
  });

  it('answers "code sent" when SMTP is down (the mail goes after the answer), keeps the mail as failed and lets the address ask again at once', async () => {
    const { email } = await addUser(f.ctx, f.t);
    await smtp.close();
    try {
      const res = await call(
        f.ctx,
        'POST',
        '/api/admin/auth/getVerificationCode',
        { email },
        { host: f.t.host, language: 'en-US' },
      );
      // The answer never waits for the mail, so it is the one every address gets.
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        code: 200,
        msg: 'The code has been sent, please check your e-mail',
        data: null,
      });
      await f.ctx.app.afterAnswerSettled();
      const [row] = await outboxRows(email);
      expect(row?.status).toBe('failed');
      expect(row?.error).toMatch(/ECONNREFUSED|connect/i);
      // The code that never arrived is gone, so the address can ask again at once.
      const codes = await f.db
        .select()
        .from(verificationCodes)
        .where(and(eq(verificationCodes.tenantId, f.t.tenant.id), eq(verificationCodes.email, email)));
      expect(codes).toHaveLength(0);
    } finally {
      smtp = startSmtp(port);
      await smtp.listening;
    }
    const retry = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/getVerificationCode',
      { email },
      { host: f.t.host },
    );
    expect(retry.json().code).toBe(200);
    await f.ctx.app.afterAnswerSettled();
    expect(mailFor(email)).toBeDefined();
  });
});
