import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outbox } from '../src/db/schema.ts';
import { sha256Hex } from '../src/lib/crypto.ts';
import type { Mailer } from '../src/modules/mail/service.ts';
import { useTestApp } from './fixture.ts';
import { addUser, call } from './helpers.ts';

/** A mail server that holds every delivery until the test lets it go. */
function heldMailer() {
  let open: () => void = () => {};
  let gate = Promise.resolve();
  const delivered: string[] = [];
  const mailer: NonNullable<Mailer> = {
    async deliver(message) {
      await gate;
      delivered.push(message.to);
    },
  };
  return {
    mailer,
    delivered,
    hold() {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    release: () => open(),
  };
}

const smtp = heldMailer();
const f = useTestApp({ app: { mailer: smtp.mailer } });

type Language = 'zh-CN' | 'en-US';
const post = (url: string, body: object, language: Language, ip: string) =>
  call(f.ctx, 'POST', `/api${url}`, body, { host: f.t.host, language, ip });

/** Each address asks from its own IP, so the per-address limits treat both alike. */
async function both(url: string, body: (email: string) => object, language: Language) {
  const known = await addUser(f.ctx, f.t);
  const unknown = `nobody-${known.id}@${f.t.tenant.code}.example.com`;
  const a = await post(url, body(known.email), language, `198.18.${known.id % 250}.1`);
  const b = await post(url, body(unknown), language, `198.18.${known.id % 250}.2`);
  return { known: a, unknown: b, email: known.email };
}

function registration(email: string) {
  return {
    email,
    code: '000000',
    name: 'Lei',
    surname: 'Li',
    dialCode: '86',
    phone: '13800138000',
    company: 'Shipper Co',
    address1: '100 Main Street',
    zipcode: '90001',
    city: 'Los Angeles',
    state: 'CA',
    country: 'US',
    licenseUrl: '/api/uploads/licence.png',
    business: ['truck'],
    monthlyVolume: '50-200',
    goodsTypes: ['general'],
    transportMethods: ['LTL'],
    preferredLocations: ['Los Angeles', 'Chicago', 'New York'],
    password: 'Shipper-1',
    confirmPassword: 'Shipper-1',
  };
}

const calls: Array<[string, string, (email: string) => object]> = [
  ['a sign-in code', '/admin/auth/getVerificationCode', (email) => ({ email, purpose: 'login' })],
  ['a registration code', '/admin/auth/getVerificationCode', (email) => ({ email, purpose: 'register' })],
  ['registering with a wrong code', '/admin/auth/register', registration],
  ['a password reset link', '/admin/auth/retrievePassword', (email) => ({ email })],
  [
    'signing in with a wrong password',
    '/admin/auth/login',
    (email) => ({ email, password: sha256Hex('not-it'), code: '123456' }),
  ],
];

describe('known and unknown addresses read alike', () => {
  for (const [what, url, body] of calls)
    for (const language of ['zh-CN', 'en-US'] as const)
      it(`answers ${what} identically (${language})`, async () => {
        const { known, unknown } = await both(url, body, language);
        expect(known.statusCode).toBe(unknown.statusCode);
        expect(known.json()).toEqual(unknown.json());
        expect(known.headers['retry-after']).toBe(unknown.headers['retry-after']);
      });

  it('registers with the form the test uses, so the wrong code is what is refused', async () => {
    const { known } = await both('/admin/auth/register', registration, 'en-US');
    expect(known.json().data.fields.map((x: { field: string }) => x.field)).toEqual(['code']);
  });
});

describe('mail goes out after the answer', () => {
  const cases: Array<[string, string, object | ((email: string) => object)]> = [
    ['a sign-in code', '/admin/auth/getVerificationCode', (email: string) => ({ email, purpose: 'login' })],
    [
      'the account-exists notice',
      '/admin/auth/getVerificationCode',
      (email: string) => ({ email, purpose: 'register' }),
    ],
    ['a password reset link', '/admin/auth/retrievePassword', (email: string) => ({ email })],
  ];
  for (const [what, url, body] of cases)
    it(`answers before ${what} is delivered`, async () => {
      const { email } = await addUser(f.ctx, f.t);
      smtp.hold();
      try {
        const res = await post(
          url,
          typeof body === 'function' ? body(email) : body,
          'en-US',
          `198.19.${email.length}.1`,
        );
        expect(res.json().code).toBe(200);
        // The answer is out while the mail server still holds the message.
        expect(smtp.delivered).not.toContain(email);
      } finally {
        smtp.release();
      }
      await f.ctx.app.afterAnswerSettled();
      expect(smtp.delivered).toContain(email);
      const [row] = await f.db
        .select()
        .from(outbox)
        .where(and(eq(outbox.tenantId, f.t.tenant.id), eq(outbox.to, email)));
      expect(row?.status).toBe('sent');
    });
});
