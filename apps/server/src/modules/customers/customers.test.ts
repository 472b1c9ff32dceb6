import { randomUUID } from 'node:crypto';
import { applyMarkup, priceChain } from '@freight/contracts/customers';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields, call, signIn, uploadFor, type Who } from '../../../test/helpers.ts';
import { rowsOf } from '../../lib/bulk-insert.ts';
import { ledgerMismatches } from '../accounts/service.ts';
import { markupChain } from './price-levels.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [['admin', 'editor', 'branch', 'agent', 'customer', 'direct'], ['admin']],
  language: 'en-US',
});
const post = (url: string, body: unknown, who: Who, tenant = f.t) => f.as(who, tenant).post(url, body);

afterEach(async () => {
  expect(await ledgerMismatches(f.db)).toEqual([]);
});

async function list(who: Who, kind: string, extra: Record<string, unknown> = {}) {
  const res = await post(
    '/api/admin/customer/list',
    { kind, line: 'truck', page: 1, limit: 50, ...extra },
    who,
  );
  return res.json();
}

async function createOrg(who: Who, body: Record<string, unknown>) {
  const email = `u${Math.random().toString(36).slice(2, 10)}@${f.t.tenant.code}.example.com`;
  const res = await post(
    '/api/admin/customer/save',
    { user: { email, name: 'First user', password: 'secret123' }, ...body },
    who,
  );
  return { res, email, id: res.json().data?.id as number };
}

describe('organisation lists and visibility', () => {
  it('shows staff every branch, and the branch page to nobody else', async () => {
    const branches = await list('admin', 'branch');
    expect(branches.code).toBe(200);
    expect(branches.data.list.map((o: any) => o.name)).toContain('East Coast Branch');
    expect(branches.data.list[0].account).toMatchObject({
      balance: '0.00',
      available: '0.00',
      status: 'normal',
    });
    expect((await list('agent', 'branch')).code).toBe(401);
    expect((await list('customer', 'agentCustomer')).code).toBe(401);
  });

  it("lets an agent see its own customers and never another agent's", async () => {
    const branchId = (await list('admin', 'branch')).data.list.find(
      (o: any) => o.name === 'East Coast Branch',
    ).id;
    const rival = await createOrg('admin', { type: 'agent', parentId: branchId, name: 'Rival Agency' });
    expect(rival.res.json().code).toBe(200);
    const rivalCustomer = await createOrg('admin', {
      type: 'customer',
      parentId: rival.id,
      name: 'Rival Shipper',
    });
    expect(rivalCustomer.res.json().code).toBe(200);

    const mine = (await list('agent', 'agentCustomer')).data.list.map((o: any) => o.name);
    expect(mine).toContain('Acme Imports');
    expect(mine).not.toContain('Rival Shipper');
    const theirs = (await list('admin', 'agentCustomer')).data.list.map((o: any) => o.name);
    expect(theirs).toEqual(expect.arrayContaining(['Acme Imports', 'Rival Shipper']));

    // Ids of another agent's customer reveal nothing either.
    const info = await post('/api/admin/customer/info', { id: rivalCustomer.id }, 'agent');
    expect(info.json().code).toBe(404);
    const users = await post('/api/admin/customer/users', { id: rivalCustomer.id }, 'agent');
    expect(users.json().code).toBe(404);
  });

  it('lists direct customers apart from agent customers', async () => {
    const direct = (await list('admin', 'directCustomer')).data.list.map((o: any) => o.name);
    expect(direct).toContain('Northwind Traders');
    expect(direct).not.toContain('Acme Imports');
  });

  it('filters by keyword and enabled, and pages', async () => {
    const hit = await list('admin', 'allCustomer', { keyword: 'acme' });
    expect(hit.data.list.map((o: any) => o.name)).toEqual(['Acme Imports']);
    const page = await list('admin', 'allCustomer', { limit: 10, page: 1 });
    expect(page.data.total).toBeGreaterThanOrEqual(2);
    const bad = await post('/api/admin/customer/list', { kind: 'allCustomer', limit: 7 }, 'admin');
    expect(badFields(bad)).toEqual(['limit']);
  });

  it("keeps another tenant's organisations out of reach", async () => {
    const ours = (await list('admin', 'allCustomer')).data.list[0].id;
    const res = await post('/api/admin/customer/info', { id: ours }, 'admin', f.tenant(1));
    expect(res.json().code).toBe(404);
    const theirList = await post('/api/admin/customer/list', { kind: 'allCustomer' }, 'admin', f.tenant(1));
    expect(theirList.json().data.list.map((o: any) => o.name)).not.toContain('Rival Shipper');
  });

  it("exports an agent's customers at once as the list shows them, with their accounts", async () => {
    const shown = (await list('agent', 'agentCustomer')).data.list;
    expect(shown.length).toBeGreaterThan(0);
    const res = await post('/api/admin/customer/export', { kind: 'agentCustomer', line: 'truck' }, 'agent');
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain('organisations.xlsx');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows = (book.worksheets[0]?.getSheetValues() ?? []).slice(1) as unknown[][];
    expect(rows[0]?.slice(1, 3)).toEqual(['ID', 'Name']);
    expect(rows.slice(1).map((r) => [r[1], r[2], r[8], r[10]])).toEqual(
      shown.map((o: any) => [
        o.id,
        o.name,
        Number(o.account?.balance ?? '0.00'),
        Number(o.account?.available ?? '0.00'),
      ]),
    );
    // The button without the list's page is refused, as the list is.
    const refused = await post(
      '/api/admin/customer/export',
      { kind: 'directCustomer', line: 'truck' },
      'agent',
    );
    expect(refused.json().code).toBe(401);
  });
});

describe('creating and changing organisations', () => {
  it('creates a customer under an agent with its first user, who can sign in and sees only itself', async () => {
    const acme = (await list('agent', 'agentCustomer')).data.list[0];
    const created = await createOrg('agent', {
      type: 'customer',
      parentId: acme.parentId,
      name: 'Agent Made Ltd',
    });
    expect(created.res.json().code).toBe(200);
    const token = await signIn(f.ctx, f.t, created.email, 'secret123');
    const info = await call(f.ctx, 'POST', '/api/admin/admin/info', {}, { host: f.t.host, token });
    expect(info.json().data.userInfo.identity).toBe('customer');
    expect(info.json().data.permissions).toEqual(['customer']);
  });

  it('refuses a type the parent may not have, and a parent outside the scope', async () => {
    const acme = (await list('agent', 'agentCustomer')).data.list[0];
    const agentUnderAgent = await createOrg('agent', {
      type: 'agent',
      parentId: acme.parentId,
      name: 'Sub Agent',
    });
    expect(agentUnderAgent.res.json().code).toBe(400);
    expect(badFields(agentUnderAgent.res)).toEqual(['parentId']);
    const branchByAgent = await createOrg('agent', { type: 'branch', parentId: null, name: 'Rogue Branch' });
    expect(badFields(branchByAgent.res)).toEqual(['parentId']);
    const direct = (await list('admin', 'directCustomer')).data.list.find(
      (o: any) => o.name === 'Northwind Traders',
    );
    const underForeign = await createOrg('agent', { type: 'customer', parentId: direct.id, name: 'X' });
    expect(badFields(underForeign.res)).toEqual(['parentId']);
  });

  it('names every bad field of a save', async () => {
    const res = await post(
      '/api/admin/customer/save',
      { type: 'planet', name: '', contactEmail: 'nope' },
      'admin',
    );
    expect(res.statusCode).toBe(400);
    expect(badFields(res)).toEqual(expect.arrayContaining(['type', 'name', 'contactEmail']));
  });

  it('disables an organisation with its users, whose sessions end', async () => {
    const org = await createOrg('admin', { type: 'customer', parentId: null, name: 'Short Lived Co' });
    const token = await signIn(f.ctx, f.t, org.email, 'secret123');
    const off = await post('/api/admin/customer/setStatus', { id: org.id, enabled: false }, 'admin');
    expect(off.json().code).toBe(200);
    const after = await call(f.ctx, 'POST', '/api/admin/admin/info', {}, { host: f.t.host, token });
    expect(after.json().code).toBe(300);
    const branchId = (await list('admin', 'branch')).data.list.find(
      (o: any) => o.name === 'East Coast Branch',
    ).id;
    const blocked = await post('/api/admin/customer/setStatus', { id: branchId, enabled: false }, 'admin');
    expect(blocked.json().code).toBe(409);
  });

  it('lets nobody manage their own organisation', async () => {
    expect((await list('customer', 'allCustomer')).code).toBe(401);
    const branchId = (await list('admin', 'branch')).data.list.find(
      (o: any) => o.name === 'East Coast Branch',
    ).id;
    const own = await post('/api/admin/customer/setStatus', { id: branchId, enabled: false }, 'branch');
    expect(own.json().code).toBe(401);
    const rename = await post(
      '/api/admin/customer/save',
      { id: branchId, type: 'branch', name: 'Mine now' },
      'branch',
    );
    expect(rename.json().code).toBe(401);
  });
});

describe('invitation codes', () => {
  it('issues a code that places a registering shipper under the agent', async () => {
    const acme = (await list('agent', 'agentCustomer')).data.list[0];
    const issued = await post(
      '/api/admin/customer/invitationCreate',
      { organisationId: acme.parentId, expiresInDays: 7 },
      'agent',
    );
    const code = issued.json().data.code as string;
    expect(code).toMatch(/^[A-Z0-9]{4,}$/);
    const listed = await post('/api/admin/customer/invitations', { id: acme.parentId }, 'agent');
    expect(listed.json().data.list.map((c: any) => c.code)).toContain(code);

    const email = `shipper@${f.t.tenant.code}.example.com`;
    await call(
      f.ctx,
      'POST',
      '/api/admin/auth/getVerificationCode',
      { email, purpose: 'register' },
      { host: f.t.host },
    );
    await f.ctx.app.afterAnswerSettled();
    const { listOutbox } = await import('../mail/service.ts');
    const [mail] = await listOutbox(f.db, f.t.tenant.id, email, 1);
    const regCode = /\b(\d{6})\b/.exec(mail?.text ?? '')?.[1];
    const reg = await call(
      f.ctx,
      'POST',
      '/api/register',
      {
        email,
        code: regCode,
        password: 'secret123',
        confirmPassword: 'secret123',
        invitationCode: code,
        name: 'Ann',
        surname: 'Lee',
        phone: '2135550100',
        company: 'Invited Goods',
        address1: '1 Main St',
        zipcode: '90001',
        city: 'Los Angeles',
        state: 'CA',
        country: 'US',
        licenseUrl: await uploadFor(f.ctx, f.t.host, undefined),
        business: ['truck'],
        monthlyVolume: '<50',
        goodsTypes: ['general'],
        transportMethods: ['LTL'],
        preferredLocations: ['LA', 'NY', 'TX'],
      },
      { host: f.t.host },
    );
    expect(reg.json().code).toBe(200);
    const mine = (await list('agent', 'agentCustomer')).data.list.map((o: any) => o.name);
    expect(mine).toContain('Invited Goods');

    const revoked = await post(
      '/api/admin/customer/invitationRevoke',
      { organisationId: acme.parentId, id: listed.json().data.list[0].id },
      'agent',
    );
    expect(revoked.json().code).toBe(200);
  });
});

describe('price levels', () => {
  it('prices each level with the markups its parents set, to the cent', async () => {
    const acme = (await list('admin', 'agentCustomer')).data.list.find((o: any) => o.name === 'Acme Imports');
    const agentId = acme.parentId as number;
    const branchId = (await list('admin', 'branch')).data.list.find(
      (o: any) => o.name === 'East Coast Branch',
    ).id;
    // Staff set the branch's markup, the branch sets its agent's, the agent sets its customer's.
    const set = async (who: Who, organisationId: number, markupPercent: string, markupFixed: string) =>
      (
        await post(
          '/api/admin/customer/priceLevelSave',
          { organisationId, line: 'truck', markupPercent, markupFixed },
          who,
        )
      ).json().code;
    expect(await set('admin', branchId, '10', '0.00')).toBe(200);
    expect(await set('branch', agentId, '5.50', '2.00')).toBe(200);
    expect(await set('agent', acme.id, '3', '0.99')).toBe(200);
    // Nobody sets its own markup.
    expect(await set('agent', agentId, '0', '0.00')).toBe(401);

    const chain = await markupChain(f.db, f.t.tenant.id, acme.id, 'truck');
    expect(chain.map((c) => c.type)).toEqual(['branch', 'agent', 'customer']);
    const prices = priceChain(
      100_00n,
      chain.map((c) => c.markup),
    );
    // 100.00 -> +10 % = 110.00 -> +5.5 % = 116.05 + 2.00 = 118.05 -> +3 % = 121.5915 ≈ 121.59 + 0.99 = 122.58
    expect(prices).toEqual([100_00n, 110_00n, 118_05n, 122_58n]);
    const read = await post('/api/admin/customer/priceLevels', { id: agentId }, 'branch');
    expect(read.json().data.list).toEqual([
      expect.objectContaining({ line: 'truck', markupPercent: '5.50', markupFixed: '2.00' }),
    ]);
  });

  it('rounds half up to the cent', () => {
    expect(applyMarkup(1_00n, { percentBp: 50, fixedCents: 0n })).toBe(1_01n); // 1.005 -> 1.01
    expect(applyMarkup(99n, { percentBp: 50, fixedCents: 0n })).toBe(99n); // 0.99495 -> 0.99
  });
});

describe('account management', () => {
  async function acmeAccountId() {
    const acme = (await list('admin', 'agentCustomer')).data.list.find((o: any) => o.name === 'Acme Imports');
    return acme.account.id as number;
  }

  it('adjusts a balance with a reason, as a ledger row and an operation-log row', async () => {
    const accountId = await acmeAccountId();
    const up = await post(
      '/api/admin/account/adjust',
      { accountId, amount: '150.25', reason: 'opening balance', requestKey: randomUUID() },
      'admin',
    );
    expect(up.json().data.balanceAfter).toBe('150.25');
    const tooMuch = await post(
      '/api/admin/account/adjust',
      { accountId, amount: '-150.26', reason: 'oops', requestKey: randomUUID() },
      'admin',
    );
    expect(tooMuch.json().code).toBe(409);
    expect(tooMuch.json().msg).toBe('Not enough available funds');
    const noReason = await post(
      '/api/admin/account/adjust',
      { accountId, amount: '1', requestKey: randomUUID() },
      'admin',
    );
    expect(badFields(noReason)).toEqual(['reason']);
    // The editor may not adjust balances.
    const editor = await post(
      '/api/admin/account/adjust',
      { accountId, amount: '1', reason: 'x', requestKey: randomUUID() },
      'editor',
    );
    expect(editor.json().code).toBe(401);
    const log = await post(
      '/api/admin/operationLog/list',
      { action: 'account.adjust', page: 1, limit: 10 },
      'admin',
    );
    expect(log.json().data.list.map((r: any) => r.resultCode)).toEqual(expect.arrayContaining([200, 409]));
  });

  it('adjusts once per request key: a replay, a double submit and a reused key move no more money', async () => {
    const accountId = await acmeAccountId();
    const balance = async () =>
      rowsOf<{ cents: string }>(
        await f.db.execute(sql`select balance_cents::text as cents from accounts where id = ${accountId}`),
      )[0]?.cents;
    const before = BigInt((await balance()) ?? 'x');
    const requestKey = randomUUID();
    const body = { accountId, amount: '10.00', reason: 'goodwill', requestKey };
    const first = (await post('/api/admin/account/adjust', body, 'admin')).json();
    expect(first.code).toBe(200);
    // The same request again, and five more at once: each answers the first adjustment.
    const again = await Promise.all(
      Array.from({ length: 6 }, () => post('/api/admin/account/adjust', body, 'admin')),
    );
    for (const res of again) expect(res.json().data).toEqual(first.data);
    expect(BigInt((await balance()) ?? 'x') - before).toBe(1_000n);
    const entries = await f.db.execute(
      sql`select count(*)::int as n from ledger_entries where idempotency_key = ${`manual-adjust:${requestKey}`}`,
    );
    expect(rowsOf<{ n: number }>(entries)[0]?.n).toBe(1);
    // The key of one adjustment for another amount is refused, not taken for the first.
    const reused = (
      await f
        .as('admin')
        .in('zh-CN')
        .post('/api/admin/account/adjust', { ...body, amount: '11.00' })
    ).json();
    expect(reused.code).toBe(409);
    expect(reused.msg).toBe('该请求编号已用于另一笔调整,请为新的调整使用新的编号');
    // Without a key, or with one too short to be unique, nothing moves and the field is named.
    const { requestKey: _k, ...keyless } = body;
    expect(badFields(await post('/api/admin/account/adjust', keyless, 'admin'))).toEqual(['requestKey']);
    expect(
      badFields(await post('/api/admin/account/adjust', { ...body, requestKey: 'short' }, 'admin')),
    ).toEqual(['requestKey']);
    expect(await ledgerMismatches(f.db)).toEqual([]);
  });

  it('freezes and unfreezes with a reason; a frozen account cannot be debited', async () => {
    const accountId = await acmeAccountId();
    const frozen = await post('/api/admin/account/freeze', { accountId, reason: 'dispute' }, 'admin');
    expect(frozen.json().data.status).toBe('frozen');
    expect(
      (await post('/api/admin/account/freeze', { accountId, reason: 'again' }, 'admin')).json().code,
    ).toBe(409);
    const debit = await post(
      '/api/admin/account/adjust',
      { accountId, amount: '-1.00', reason: 'test', requestKey: randomUUID() },
      'admin',
    );
    expect(debit.json().code).toBe(409);
    const thawed = await post('/api/admin/account/unfreeze', { accountId, reason: 'settled' }, 'admin');
    expect(thawed.json().data.status).toBe('normal');
  });

  it('sets a credit limit that raises the available funds', async () => {
    const accountId = await acmeAccountId();
    const res = await post(
      '/api/admin/account/setCreditLimit',
      { accountId, creditLimit: '500.00', reason: 'good payer' },
      'admin',
    );
    expect(res.json().data.creditLimit).toBe('500.00');
    expect(Number(res.json().data.available)).toBeGreaterThanOrEqual(500);
    const bad = await post(
      '/api/admin/account/setCreditLimit',
      { accountId, creditLimit: '5.001', reason: 'x' },
      'admin',
    );
    expect(badFields(bad)).toEqual(['creditLimit']);
  });

  it("refuses another tenant's staff", async () => {
    const accountId = await acmeAccountId();
    const res = await post('/api/admin/account/freeze', { accountId, reason: 'x' }, 'admin', f.tenant(1));
    expect(res.json().code).toBe(404);
  });
});

describe('parent options', () => {
  it('offers an agent only itself as the parent of a new customer, and staff every agent and branch', async () => {
    const mine = await post('/api/admin/customer/parentOptions', { type: 'customer' }, 'agent');
    expect(mine.json().data.list.map((o: any) => o.name)).toEqual(['Harbor Freight Agency']);
    expect(mine.json().data.platformAllowed).toBe(false);
    const staff = await post('/api/admin/customer/parentOptions', { type: 'customer' }, 'admin');
    const names = staff.json().data.list.map((o: any) => o.name);
    expect(names).toEqual(expect.arrayContaining(['Harbor Freight Agency', 'East Coast Branch']));
    expect(staff.json().data.platformAllowed).toBe(true);
    const forBranch = await post('/api/admin/customer/parentOptions', { type: 'branch' }, 'admin');
    expect(forBranch.json().data.list).toEqual([]);
  });
});

describe('account log and deductions', () => {
  it('lists freezes, credit changes and adjustments in the account log, and no recharges', async () => {
    const log = await post('/api/admin/account/log', { line: 'truck', page: 1, limit: 50 }, 'admin');
    const types = new Set(log.json().data.list.map((r: any) => r.type));
    expect([...types].sort()).toEqual(['credit_limit', 'freeze', 'manual_adjustment', 'unfreeze']);
    const forbiddenForAgent = await post(
      '/api/admin/account/log',
      { line: 'truck', page: 1, limit: 50 },
      'agent',
    );
    expect(forbiddenForAgent.json().code).toBe(200);
    expect(
      forbiddenForAgent.json().data.list.every((r: any) => r.organisationName !== 'Northwind Traders'),
    ).toBe(true);
  });

  it('lists only surcharges and work-order deductions as supplementary deductions', async () => {
    const acme = (await list('admin', 'agentCustomer')).data.list.find((o: any) => o.name === 'Acme Imports');
    const accountId = acme.account.id as number;
    const { moveMoney } = await import('../accounts/service.ts');
    await moveMoney(f.db, {
      tenantId: f.t.tenant.id,
      accountId,
      type: 'recharge',
      amount: 5_000n,
      refId: 'R-1',
    });
    await moveMoney(f.db, {
      tenantId: f.t.tenant.id,
      accountId,
      type: 'surcharge',
      amount: -1_234n,
      refId: 'BB-1',
    });
    const res = await post('/api/admin/account/deductions', { line: 'truck', page: 1, limit: 50 }, 'admin');
    const refs = res.json().data.list.map((r: any) => r.refId);
    expect(refs).toContain('BB-1');
    expect(refs).not.toContain('R-1');
    expect(res.json().data.list.find((r: any) => r.refId === 'BB-1').amount).toBe('-12.34');
  });
});
