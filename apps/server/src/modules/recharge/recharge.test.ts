import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import {
  badFields,
  call,
  fieldMessage,
  signIn,
  type TestTenant,
  uploadFor,
  userIdOf,
  type Who,
} from '../../../test/helpers.ts';
import { ledgerEntries } from '../accounts/schema.ts';
import { ensureAccount, ledgerMismatches } from '../accounts/service.ts';
import { createUser, findUser } from '../auth/service.ts';
import { setLocale } from '../auth/users.ts';
import { createOrganisation } from '../customers/service.ts';
import { assignRoles } from '../roles/service.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [
    ['admin', 'editor', 'branch', 'agent', 'customer', 'direct'],
    ['admin', 'customer'],
  ],
});
/** Sessions of users made here, beside the demo ones. */
const made: Record<string, string> = {};
/** The session of a demo identity, of one made here, or of the other tenant's admin or customer. */
const tokenOf = (who: string) =>
  made[who] ??
  (who === 'otherAdmin' || who === 'otherCustomer'
    ? f.as(who === 'otherAdmin' ? 'admin' : 'customer', f.tenant(1)).token
    : f.as(who as Who).token);
const orgs: Record<string, number> = {};
let cnyAccountId: number;
let usdAccountId: number;

type Language = 'zh-CN' | 'en-US';
const post = (url: string, body: unknown, who: string, tenant = f.t, language: Language = 'en-US') =>
  call(f.ctx, 'POST', url, body, { host: tenant.host, token: tokenOf(who), language });
const waitNum = async (who: string, tenant = f.t) =>
  (
    await call(f.ctx, 'GET', '/api/admin/recharge/waitNum', null, { host: tenant.host, token: tokenOf(who) })
  ).json().data as { waitNum: number; expressWaitNum: number };

async function organisationOf(tenant: TestTenant, email: string): Promise<number> {
  const user = await findUser(f.db, tenant.tenant.id, await userIdOf(f.ctx, tenant.tenant.id, email));
  return user?.organisationId as number;
}

/** A user of a new organisation, signed in once for the whole file. */
async function addOrganisationUser(name: string, role: string, organisationId: number) {
  const email = `${name}@${f.t.tenant.code}.example.com`;
  const user = await createUser(f.db, f.t.tenant.id, {
    email,
    password: f.t.password,
    identity: 'customer',
    organisationId,
    name,
    company: name,
  });
  await assignRoles(f.db, f.t.tenant.id, user.id, [f.t.roleIds.get(role) as number]);
  made[name] = await signIn(f.ctx, f.t, email);
}

beforeAll(async () => {
  const db = f.db;
  for (const who of ['branch', 'agent', 'customer', 'direct'] as const)
    orgs[who] = await organisationOf(f.t, f.t.email(who));
  // The direct customer reads English; everybody else keeps the default, Chinese.
  await setLocale(db, f.t.tenant.id, await userIdOf(f.ctx, f.t.tenant.id, f.t.email('direct')), 'en-US');

  // A second agent under the same branch, with a customer of its own (no accounts yet).
  const otherAgent = await createOrganisation(db, f.t.tenant.id, {
    type: 'agent',
    name: 'Bay Logistics',
    parentId: orgs.branch,
  });
  const globex = await createOrganisation(db, f.t.tenant.id, {
    type: 'customer',
    name: 'Globex Trading',
    parentId: otherAgent.id,
  });
  orgs.globex = globex.id;
  await addOrganisationUser('globex', 'customer', globex.id);

  // Staff who may review truck recharges only.
  const role = await post(
    '/api/admin/role/save',
    { name: 'Truck reviewer', nameEn: 'Truck reviewer', menuIds: [26], buttonKeys: ['recharge:review'] },
    'admin',
  );
  const reviewer = await createUser(db, f.t.tenant.id, {
    email: `truck-reviewer@${f.t.tenant.code}.example.com`,
    password: f.t.password,
    identity: 'employee',
    name: 'Truck reviewer',
  });
  await assignRoles(db, f.t.tenant.id, reviewer.id, [role.json().data.id]);
  made.truckReviewer = await signIn(f.ctx, f.t, reviewer.email);

  const accounts = (await post('/api/admin/recharge/receivingAccounts', {}, 'customer')).json().data.list;
  cnyAccountId = accounts.find((a: { currency: string }) => a.currency === 'CNY').id;
  usdAccountId = accounts.find((a: { currency: string }) => a.currency === 'USD').id;
});
afterEach(async () => {
  expect(await ledgerMismatches(f.db)).toEqual([]);
});

const submission = (extra: Record<string, unknown> = {}) => ({
  line: 'truck',
  amount: '500.00',
  method: 'bank_transfer',
  receivingAccountId: cnyAccountId,
  payerName: 'Ann Lee',
  payerCardNumber: '6222 0000 1111 2345',
  screenshotUrl: '/api/uploads/proof.png',
  ...extra,
});

interface Recharge {
  id: number;
  serial: string;
  status: string;
  organisationId: number;
}

/** A payment screenshot the submitter uploaded: a recharge takes only its submitter's own upload. */
const shot = (who: string) => uploadFor(f.ctx, f.t.host, tokenOf(who));

async function submit(who = 'customer', extra: Record<string, unknown> = {}): Promise<Recharge> {
  const res = await post(
    '/api/admin/recharge/submit',
    submission({ screenshotUrl: await shot(who), ...extra }),
    who,
  );
  expect(res.json().code, res.body).toBe(200);
  return res.json().data;
}

const review = (id: number, action: string, who = 'admin', extra: Record<string, unknown> = {}) =>
  post('/api/admin/recharge/review', { id, action, ...extra }, who);

const balanceOf = async (organisationId: number | undefined, line: 'truck' | 'express' = 'truck') =>
  (await ensureAccount(f.db, f.t.tenant.id, organisationId as number, line)).balance;

const ledgerRowsOf = (serial: string) =>
  f.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.tenantId, f.t.tenant.id), eq(ledgerEntries.refId, serial)));

const idsSeenBy = async (who: string, tenant = f.t, filter: Record<string, unknown> = {}) =>
  (await post('/api/admin/recharge/list', { page: 1, limit: 200, ...filter }, who, tenant))
    .json()
    .data.list.map((r: Recharge) => r.id) as number[];

const totalSeenByStaff = async () =>
  (await post('/api/admin/recharge/list', { page: 1, limit: 10 }, 'admin')).json().data.total as number;

describe('receiving accounts', () => {
  it('lists only enabled accounts to submitters, the same through getAdminAccount', async () => {
    const saved = await post(
      '/api/admin/recharge/receivingAccount/save',
      { currency: 'USD', bankName: 'Chase', accountName: 'Ops', accountNumber: '9988 7766', enabled: false },
      'admin',
    );
    expect(saved.json().code).toBe(200);
    const id = saved.json().data.id;
    const forCustomer = (await post('/api/admin/recharge/receivingAccounts', {}, 'customer')).json().data
      .list;
    expect(forCustomer.map((a: { id: number }) => a.id)).not.toContain(id);
    const spec = (await post('/api/admin/admin/getAdminAccount', {}, 'customer')).json().data.list;
    expect(spec).toEqual(forCustomer);
    const all = (await post('/api/admin/recharge/receivingAccountsAll', {}, 'admin')).json().data.list;
    expect(all).toContainEqual(expect.objectContaining({ id, bankName: 'Chase', enabled: false }));
    // A disabled account takes no money.
    const refused = await post(
      '/api/admin/recharge/submit',
      submission({ receivingAccountId: id }),
      'customer',
    );
    expect(badFields(refused)).toEqual(['receivingAccountId']);
  });

  it('lets only staff keep them, and keeps an account money was paid into', async () => {
    const body = { currency: 'CNY', bankName: 'ICBC', accountName: 'Ops', accountNumber: '1234 5678' };
    expect((await post('/api/admin/recharge/receivingAccount/save', body, 'customer')).json().code).toBe(401);
    const id = (await post('/api/admin/recharge/receivingAccount/save', body, 'admin')).json().data.id;
    const renamed = await post(
      '/api/admin/recharge/receivingAccount/save',
      { ...body, id, bankName: 'BOC' },
      'admin',
    );
    expect(renamed.json().code).toBe(200);
    expect((await post('/api/admin/recharge/receivingAccount/delete', { id }, 'customer')).json().code).toBe(
      401,
    );
    expect((await post('/api/admin/recharge/receivingAccount/delete', { id }, 'admin')).json().code).toBe(
      200,
    );
    expect((await post('/api/admin/recharge/receivingAccount/delete', { id }, 'admin')).json().code).toBe(
      404,
    );

    await submit('customer');
    const inUse = await post('/api/admin/recharge/receivingAccount/delete', { id: cnyAccountId }, 'admin');
    expect(inUse.json()).toMatchObject({ code: 409, msg: expect.stringContaining('disable it') });
    // Another tenant's staff cannot touch it.
    const foreign = await post(
      '/api/admin/recharge/receivingAccount/save',
      { ...body, id: cnyAccountId },
      'otherAdmin',
      f.tenant(1),
    );
    expect(foreign.json().code).toBe(404);
  });
});

describe('submitting a recharge', () => {
  it('records it for the caller organisation with a daily serial, the account currency, and a masked card', async () => {
    const first = await submit('customer');
    const second = await submit('customer', { receivingAccountId: usdAccountId, line: 'express' });
    expect(first.serial).toMatch(/^R\d{8}-\d{6}$/);
    expect(Number(second.serial.slice(-6))).toBe(Number(first.serial.slice(-6)) + 1);
    expect(second).toMatchObject({ currency: 'USD', line: 'express', organisationId: orgs.customer });
    const list = await post('/api/admin/recharge/list', { page: 1, limit: 10 }, 'customer');
    const row = list.json().data.list.find((x: Recharge) => x.id === first.id);
    expect(row).toMatchObject({
      status: 'submitted',
      amount: '500.00',
      currency: 'CNY',
      method: 'bank_transfer',
      organisationName: 'Acme Imports',
      actions: [],
    });
    expect(row.payerCardNumber).toBe('***************2345');
    // Staff reviewing it see the whole card number in its details.
    const info = (await post('/api/admin/recharge/info', { id: first.id }, 'admin')).json().data;
    expect(info.payerCardNumber).toBe('6222 0000 1111 2345');
    expect(info.receivingAccount).toMatchObject({ id: cnyAccountId, currency: 'CNY' });
    expect(info.actions).toEqual(['approve_received', 'approve_pending', 'await_funds', 'reject']);
  });

  it('gives submissions made at the same moment distinct serials', async () => {
    const results = await Promise.all(
      await Promise.all(
        ['customer', 'direct', 'globex', 'customer', 'agent'].map(async (who) => [who, await shot(who)]),
      ).then((shots) =>
        shots.map(([who, url]) =>
          post('/api/admin/recharge/submit', submission({ screenshotUrl: url }), who as string),
        ),
      ),
    );
    const serials = results.map((r) => r.json().data.serial);
    expect(new Set(serials).size).toBe(5);
  });

  it('lets agents and branches recharge their own organisation', async () => {
    expect((await submit('agent')).organisationId).toBe(orgs.agent);
    expect((await submit('branch')).organisationId).toBe(orgs.branch);
  });

  it('names each bad field with a 400 and writes nothing', async () => {
    const before = await totalSeenByStaff();
    const { receivingAccountId: _r, ...withoutAccount } = submission();
    const { screenshotUrl: _s, ...withoutScreenshot } = submission();
    const cases: [Record<string, unknown>, string][] = [
      [submission({ amount: '12.345' }), 'amount'],
      [submission({ amount: '0.00' }), 'amount'],
      [submission({ amount: '-5' }), 'amount'],
      [submission({ amount: 'ten' }), 'amount'],
      [submission({ method: 'cash' }), 'method'],
      [withoutAccount, 'receivingAccountId'],
      [submission({ receivingAccountId: 999_999 }), 'receivingAccountId'],
      [submission({ payerName: '  ' }), 'payerName'],
      [submission({ payerCardNumber: 'abc' }), 'payerCardNumber'],
      [submission({ payerCardNumber: '12' }), 'payerCardNumber'],
      [withoutScreenshot, 'screenshotUrl'],
      [submission({ screenshotUrl: '' }), 'screenshotUrl'],
      [submission({ line: 'air' }), 'line'],
      [submission({ note: 'x'.repeat(201) }), 'note'],
    ];
    for (const [body, field] of cases) {
      const res = await post('/api/admin/recharge/submit', body, 'customer');
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(badFields(res), JSON.stringify(body)).toEqual([field]);
    }
    const zero = await post('/api/admin/recharge/submit', submission({ amount: '0' }), 'customer');
    expect(fieldMessage(zero, 'amount')).toBe('The amount must be greater than 0');
    const chinese = await post(
      '/api/admin/recharge/submit',
      submission({ screenshotUrl: '' }),
      'customer',
      f.t,
      'zh-CN',
    );
    expect(chinese.json().msg).toBe('请上传付款截图');
    expect(await totalSeenByStaff()).toBe(before);
  });

  it("refuses a screenshot that is not the submitter's own unused upload, naming the field, and writes nothing", async () => {
    const before = await totalSeenByStaff();
    const used = await shot('customer');
    await submit('customer', { screenshotUrl: used });
    for (const url of [
      'https://probe.invalid/receipt.png',
      '/api/uploads/proof.png',
      await shot('direct'),
      await uploadFor(f.ctx, f.tenant(1).host, tokenOf('otherCustomer')),
      used,
    ]) {
      const res = await post('/api/admin/recharge/submit', submission({ screenshotUrl: url }), 'customer');
      expect(res.statusCode, url).toBe(400);
      expect(badFields(res), url).toEqual(['screenshotUrl']);
      expect(fieldMessage(res, 'screenshotUrl')).toBe(
        'Payment screenshot: Only files uploaded to the portal can be attached',
      );
    }
    expect(await totalSeenByStaff()).toBe(before + 1);
  });

  it('serves the screenshot to its submitter, the organisations above and staff; 404 to a sibling, 300 without a session', async () => {
    const url = await shot('customer');
    const { id } = await submit('customer', { screenshotUrl: url });
    const load = (who: string | null, host = f.t.host) =>
      f.ctx.app.inject({
        method: 'GET',
        url,
        headers: { host, ...(who ? { accesstoken: tokenOf(who) as string } : {}) },
      });
    for (const who of ['customer', 'agent', 'branch', 'admin', 'truckReviewer']) {
      const res = await load(who);
      expect(res.statusCode, who).toBe(200);
      expect(res.headers['cache-control'], who).toBe('private, no-store');
    }
    for (const who of ['direct', 'globex']) {
      // A sibling customer sees neither the recharge nor its screenshot.
      expect((await post('/api/admin/recharge/info', { id }, who)).json().code, who).toBe(404);
      expect((await load(who)).statusCode, who).toBe(404);
    }
    expect((await load(null)).json().code).toBe(300);
    expect((await load('otherAdmin', f.tenant(1).host)).statusCode).toBe(404);
  });

  it('refuses staff, who have no organisation to credit, with a 409 that says so', async () => {
    const res = await post('/api/admin/recharge/submit', submission(), 'admin');
    expect(res.json()).toMatchObject({
      code: 409,
      msg: expect.stringContaining('Staff accounts cannot submit'),
    });
  });
});

describe('who sees which recharges', () => {
  it("shows a customer its own, an agent its own customers', a branch its subtree, staff all", async () => {
    const acme = await submit('customer');
    const direct = await submit('direct');
    const globex = await submit('globex');
    const agentOwn = await submit('agent');

    const customer = await idsSeenBy('customer');
    expect(customer).toContain(acme.id);
    expect(customer).not.toContain(direct.id);
    expect(customer).not.toContain(globex.id);
    expect(customer).not.toContain(agentOwn.id);

    const agent = await idsSeenBy('agent');
    expect(agent).toEqual(expect.arrayContaining([acme.id, agentOwn.id]));
    expect(agent).not.toContain(globex.id);
    expect(agent).not.toContain(direct.id);

    const branch = await idsSeenBy('branch');
    expect(branch).toEqual(expect.arrayContaining([acme.id, agentOwn.id, globex.id]));
    expect(branch).not.toContain(direct.id);

    expect(await idsSeenBy('admin')).toEqual(
      expect.arrayContaining([acme.id, direct.id, globex.id, agentOwn.id]),
    );

    expect((await post('/api/admin/recharge/info', { id: globex.id }, 'agent')).json().code).toBe(404);
    expect((await post('/api/admin/recharge/info', { id: direct.id }, 'customer')).json().code).toBe(404);
    // Exported rows follow the same scope.
    const exported = await post('/api/admin/recharge/export', {}, 'agent');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const serials = book.worksheets[0]?.getColumn(1).values.slice(2) ?? [];
    expect(serials).toContain(acme.serial);
    expect(serials).not.toContain(globex.serial);
  });

  it("never shows one tenant another's recharges", async () => {
    const mine = await submit('customer');
    expect(await idsSeenBy('otherAdmin', f.tenant(1))).not.toContain(mine.id);
    expect(await idsSeenBy('otherCustomer', f.tenant(1))).not.toContain(mine.id);
    expect(
      (await post('/api/admin/recharge/info', { id: mine.id }, 'otherAdmin', f.tenant(1))).json().code,
    ).toBe(404);
    const foreign = await post(
      '/api/admin/recharge/review',
      { id: mine.id, action: 'reject', note: 'x' },
      'otherAdmin',
      f.tenant(1),
    );
    expect(foreign.json().code).toBe(404);
    expect(await waitNum('otherAdmin', f.tenant(1))).toEqual({ waitNum: 0, expressWaitNum: 0 });
  });

  it('filters by line, status, serial, organisation, keyword and period', async () => {
    const a = await submit('globex', { payerName: 'Zed Quartz' });
    const b = await submit('globex', { line: 'express', receivingAccountId: usdAccountId });
    expect(await idsSeenBy('admin', f.t, { organisationId: orgs.globex, line: 'express' })).toEqual([b.id]);
    expect(await idsSeenBy('admin', f.t, { serial: a.serial })).toEqual([a.id]);
    expect(await idsSeenBy('admin', f.t, { keyword: 'Zed Quar' })).toEqual([a.id]);
    // The keyword finds the organisation by its name.
    expect(await idsSeenBy('admin', f.t, { keyword: 'globex' })).toEqual(
      expect.arrayContaining([a.id, b.id]),
    );
    expect(await idsSeenBy('agent', f.t, { keyword: 'globex' })).toEqual([]);
    const later = new Date(Date.now() + 60_000).toISOString();
    expect(await idsSeenBy('admin', f.t, { organisationId: orgs.globex, from: later })).toEqual([]);
    expect(
      await idsSeenBy('admin', f.t, { organisationId: orgs.globex, to: later, status: 'submitted' }),
    ).toEqual(expect.arrayContaining([a.id, b.id]));
    const paged = (await post('/api/admin/recharge/list', { page: 2, limit: 10 }, 'admin')).json().data;
    expect(paged).toMatchObject({ page: 2, limit: 10, total: expect.any(Number) });
  });
});

describe('reviewing', () => {
  it('approved with funds received: credits the credited amount less the fee once, with an audit record', async () => {
    const r = await submit('direct', { amount: '300.00' });
    const before = await balanceOf(orgs.direct);
    const res = await review(r.id, 'approve_received', 'admin', { creditedAmount: '299.50', fee: '2.00' });
    expect(res.json().data).toMatchObject({
      status: 'approved_received',
      creditedAmount: '299.50',
      fee: '2.00',
      settledAt: expect.any(String),
      actions: [],
    });
    expect(await balanceOf(orgs.direct)).toBe(before + 29_750n);
    const rows = await ledgerRowsOf(r.serial);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: 'recharge', amount: 29_750n, idempotencyKey: `recharge:${r.id}` });

    const again = await review(r.id, 'approve_received');
    expect(again.json()).toMatchObject({ code: 409, msg: 'This recharge has already been reviewed' });
    expect(await balanceOf(orgs.direct)).toBe(before + 29_750n);

    const info = await post('/api/admin/recharge/info', { id: r.id }, 'direct');
    expect(info.json().data.reviews).toEqual([
      expect.objectContaining({
        auditor: f.t.email('admin'),
        action: 'approve_received',
        result: 'approved_received',
        amount: '299.50',
        fee: '2.00',
      }),
    ]);
  });

  it('credits the submitted amount when no credited amount is given', async () => {
    const r = await submit('direct', { amount: '12.34' });
    const before = await balanceOf(orgs.direct);
    await review(r.id, 'approve_received');
    expect(await balanceOf(orgs.direct)).toBe(before + 1_234n);
  });

  it('approved with funds not received: credits now, and settling later moves nothing', async () => {
    const r = await submit('direct', { amount: '10.00' });
    const before = await balanceOf(orgs.direct);
    const pending = await review(r.id, 'approve_pending');
    expect(pending.json().data).toMatchObject({
      status: 'approved_pending',
      settledAt: null,
      actions: ['settle'],
    });
    expect(await balanceOf(orgs.direct)).toBe(before + 1_000n);
    const settled = await post('/api/admin/recharge/settle', { id: r.id }, 'admin');
    expect(settled.json().data).toMatchObject({ status: 'approved_received', settledAt: expect.any(String) });
    expect(await balanceOf(orgs.direct)).toBe(before + 1_000n);
    // Settling moves no money: beside the credit there is only the zero row of the account log.
    expect((await ledgerRowsOf(r.serial)).map((x) => [x.type, x.amount])).toEqual([
      ['recharge', 1_000n],
      ['recharge_settled', 0n],
    ]);
    const twice = await post('/api/admin/recharge/settle', { id: r.id }, 'admin');
    expect(twice.json()).toMatchObject({
      code: 409,
      msg: expect.stringContaining('before the funds arrived'),
    });
    const audit = (await post('/api/admin/recharge/info', { id: r.id }, 'admin')).json().data.reviews;
    expect(audit.map((x: { action: string }) => x.action)).toEqual(['approve_pending', 'settle']);
  });

  it('awaiting funds credits nothing and stays reviewable, then approval credits', async () => {
    const r = await submit('direct', { amount: '20.00' });
    const before = await balanceOf(orgs.direct);
    const waiting = await review(r.id, 'await_funds');
    expect(waiting.json().data).toMatchObject({
      status: 'awaiting_funds',
      actions: ['approve_received', 'approve_pending', 'reject'],
    });
    expect(await balanceOf(orgs.direct)).toBe(before);
    expect((await review(r.id, 'await_funds')).json().code).toBe(409);
    await review(r.id, 'approve_received', 'admin', { creditedAmount: '19.00' });
    expect(await balanceOf(orgs.direct)).toBe(before + 1_900n);
  });

  it('rejecting needs a reason and credits nothing', async () => {
    const r = await submit('direct', { amount: '20.00' });
    const before = await balanceOf(orgs.direct);
    const noReason = await review(r.id, 'reject');
    expect(badFields(noReason)).toEqual(['note']);
    const rejected = await review(r.id, 'reject', 'admin', { note: 'no transfer found' });
    expect(rejected.json().data).toMatchObject({ status: 'rejected', reviewNote: 'no transfer found' });
    expect(await balanceOf(orgs.direct)).toBe(before);
    expect((await ledgerRowsOf(r.serial)).map((x) => [x.type, x.amount])).toEqual([
      ['recharge_rejected', 0n],
    ]);
    expect((await review(r.id, 'approve_received')).json().code).toBe(409);
    expect((await post('/api/admin/recharge/settle', { id: r.id }, 'admin')).json().code).toBe(409);
  });

  it('puts every review step in the account log: credits as they are, the rest as zero rows with the note', async () => {
    const waiting = await submit('direct', { amount: '7.00' });
    await review(waiting.id, 'await_funds', 'admin', { note: 'checking the bank' });
    await review(waiting.id, 'reject', 'admin', { note: 'no transfer found' });
    const pending = await submit('direct', { amount: '8.00' });
    await review(pending.id, 'approve_pending');
    await post('/api/admin/recharge/settle', { id: pending.id }, 'admin');
    type LogRow = { type: string; amount: string; refId: string; note: string; organisationName: string };
    const logOf = async (who: string, serial: string) =>
      (
        (
          await post('/api/admin/account/log', { line: 'truck', page: 1, limit: 50, reference: serial }, who)
        ).json().data.list as LogRow[]
      ).map((x) => [x.type, x.amount, x.note]);
    expect(await logOf('admin', waiting.serial)).toEqual([
      ['recharge_rejected', '0.00', 'no transfer found'],
      ['recharge_awaiting', '0.00', 'checking the bank'],
    ]);
    expect(await logOf('admin', pending.serial)).toEqual([
      ['recharge_settled', '0.00', ''],
      ['recharge', '8.00', ''],
    ]);
    // The customer reads the same events on its own account log; another customer sees none of them.
    expect(await logOf('direct', waiting.serial)).toEqual(await logOf('admin', waiting.serial));
    expect(await logOf('customer', waiting.serial)).toEqual([]);
  });

  it('lists money only in the account details: a rejected recharge adds no 0.00 row there, only to the log', async () => {
    const rejected = await submit('direct', { amount: '9.00' });
    await review(rejected.id, 'reject', 'admin', { note: 'no transfer found' });
    const approved = await submit('direct', { amount: '6.00' });
    await review(approved.id, 'approve_pending');
    await post('/api/admin/recharge/settle', { id: approved.id }, 'admin');
    type Row = { type: string; amount: string; refId: string };
    const detailsOf = async (who: string, body: Record<string, unknown>) =>
      (await post('/api/admin/account/details', { line: 'truck', page: 1, limit: 100, ...body }, who)).json()
        .data as { list: Row[]; total: number };
    expect((await detailsOf('direct', { reference: rejected.serial })).list).toEqual([]);
    expect((await detailsOf('admin', { reference: rejected.serial })).total).toBe(0);
    // The approval's credit is the one money row of its recharge; settling it later moved nothing.
    const found = await detailsOf('direct', { reference: approved.serial });
    expect(found.list.map((x) => [x.type, x.amount, x.refId])).toEqual([
      ['recharge', '6.00', approved.serial],
    ]);
    expect(found.total).toBe(1);
    const all = await detailsOf('direct', {});
    expect(all.list.every((x) => x.amount !== '0.00')).toBe(true);
    // A notice's link names the movement: another customer, or another tenant, finds nothing by it.
    expect((await detailsOf('customer', { reference: approved.serial })).list).toEqual([]);
    const foreign = await post(
      '/api/admin/account/details',
      { line: 'truck', page: 1, limit: 10, reference: approved.serial },
      'otherAdmin',
      f.tenant(1),
    );
    expect(foreign.json().data.list).toEqual([]);
  });

  it('refuses a fee not below the credited amount and changes nothing', async () => {
    const r = await submit('direct', { amount: '5.00' });
    const res = await review(r.id, 'approve_received', 'admin', { fee: '5.00' });
    expect(badFields(res)).toEqual(['fee']);
    expect(badFields(await review(r.id, 'approve_received', 'admin', { creditedAmount: '0' }))).toEqual([
      'creditedAmount',
    ]);
    expect((await post('/api/admin/recharge/info', { id: r.id }, 'admin')).json().data.status).toBe(
      'submitted',
    );
    expect(await ledgerRowsOf(r.serial)).toHaveLength(0);
  });

  it('credits once when reviewers act at the same moment; the others hear 409', async () => {
    const r = await submit('globex', { amount: '40.00' });
    const before = await balanceOf(orgs.globex);
    const results = await Promise.all([
      review(r.id, 'approve_received'),
      review(r.id, 'approve_pending', 'editor'),
      review(r.id, 'approve_received', 'truckReviewer'),
      review(r.id, 'approve_received', 'editor'),
    ]);
    expect(results.map((x) => x.json().code).sort()).toEqual([200, 409, 409, 409]);
    expect(await balanceOf(orgs.globex)).toBe(before + 4_000n);
    expect(await ledgerRowsOf(r.serial)).toHaveLength(1);
    const audit = (await post('/api/admin/recharge/info', { id: r.id }, 'admin')).json().data.reviews;
    expect(audit).toHaveLength(1);
  });

  it("checks the review key of the recharge's line, with a message naming the line", async () => {
    const truck = await submit('customer');
    const express = await submit('customer', { line: 'express', receivingAccountId: usdAccountId });
    const denied = await review(express.id, 'approve_received', 'truckReviewer');
    expect(denied.json()).toMatchObject({ code: 401, msg: 'You may not review express recharges' });
    expect(denied.statusCode).toBe(403);
    expect((await post('/api/admin/recharge/settle', { id: express.id }, 'truckReviewer')).json().code).toBe(
      401,
    );
    expect((await review(truck.id, 'await_funds', 'truckReviewer')).json().code).toBe(200);
    // The reviewer is told which actions it has on each line.
    const rows = (await post('/api/admin/recharge/list', { page: 1, limit: 200 }, 'truckReviewer')).json()
      .data.list;
    expect(rows.every((r: { line: string }) => r.line === 'truck')).toBe(true);
    for (const who of ['agent', 'customer', 'branch'])
      expect((await review(truck.id, 'reject', who)).json().code).toBe(401);
  });
});

describe('notices to the submitter', () => {
  it('stores a toast notice that leads to the account details, read in the reader’s language of the moment', async () => {
    const english = await submit('direct', { amount: '8.00' });
    const chinese = await submit('customer', { amount: '9.00' });
    await review(english.id, 'approve_received', 'admin', { fee: '1.00' });
    await review(chinese.id, 'reject', 'admin', { note: '未收到款项' });

    const forDirect = (await post('/api/admin/notice/userNotices', { type: 0 }, 'direct')).json().data.list;
    expect(forDirect).toContainEqual({
      id: expect.any(Number),
      type: 1,
      title: 'Recharge reviewed',
      content: `Your recharge ${english.serial} was approved; 7.00 has been credited.`,
      pop_theme: '',
      order_type: 3,
      order_sn: english.serial,
    });
    // The same notice in whichever language its reader uses when reading it; the note as typed.
    const forCustomer = (
      await post('/api/admin/notice/userNotices', { type: 0 }, 'customer', f.t, 'en-US')
    ).json().data.list;
    expect(forCustomer).toContainEqual(
      expect.objectContaining({
        title: 'Recharge reviewed',
        content: `Your recharge ${chinese.serial} was rejected: 未收到款项`,
        order_sn: chinese.serial,
      }),
    );
    const inChinese = (
      await post('/api/admin/notice/userNotices', { type: 0 }, 'customer', f.t, 'zh-CN')
    ).json().data.list;
    expect(inChinese).toContainEqual(
      expect.objectContaining({
        title: '充值审核结果',
        content: `您的充值 ${chinese.serial} 被驳回:未收到款项`,
        order_sn: chinese.serial,
      }),
    );
    // Nobody else is told.
    const forAgent = (await post('/api/admin/notice/userNotices', { type: 0 }, 'agent')).json().data.list;
    expect(forAgent.map((n: { order_sn: string }) => n.order_sn)).not.toContain(chinese.serial);
  });
});

describe('waiting counts', () => {
  it('counts what the caller may review per line, and drops after a review', async () => {
    const start = await waitNum('admin');
    const truck = await submit('customer');
    const express = await submit('customer', { line: 'express', receivingAccountId: usdAccountId });
    expect(await waitNum('admin')).toEqual({
      waitNum: start.waitNum + 1,
      expressWaitNum: start.expressWaitNum + 1,
    });
    expect(await waitNum('truckReviewer')).toEqual({ waitNum: start.waitNum + 1, expressWaitNum: 0 });
    expect(await waitNum('customer')).toEqual({ waitNum: 0, expressWaitNum: 0 });
    expect(await waitNum('branch')).toEqual({ waitNum: 0, expressWaitNum: 0 });

    // Awaiting confirmation of funds still waits for a reviewer.
    await review(truck.id, 'await_funds');
    expect((await waitNum('admin')).waitNum).toBe(start.waitNum + 1);
    await review(truck.id, 'reject', 'admin', { note: 'duplicate' });
    await review(express.id, 'approve_pending');
    expect(await waitNum('admin')).toEqual(start);
  });
});

describe('export', () => {
  it('exports the filtered recharges as a spreadsheet in the caller language, cards masked', async () => {
    const r = await submit('direct', { amount: '66.60' });
    const res = await post('/api/admin/recharge/export', { serial: r.serial }, 'admin', f.t, 'zh-CN');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.rowCount).toBe(2);
    const header = sheet?.getRow(1).values as unknown[];
    const row = sheet?.getRow(2).values as unknown[];
    const cell = (name: string) => row[header.indexOf(name)];
    expect(cell('流水号')).toBe(r.serial);
    expect(cell('提交金额')).toBe(66.6);
    expect(cell('状态')).toBe('待审核');
    expect(cell('付款方式')).toBe('银行转账');
    expect(cell('付款卡号')).toBe('***************2345');
    expect(cell('客户')).toBe('Northwind Traders');
  });
});
