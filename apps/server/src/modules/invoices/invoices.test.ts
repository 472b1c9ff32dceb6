import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  badFields,
  call,
  createTenant,
  createTestApp,
  signInAs,
  type TestContext,
  type TestTenant,
} from '../../../test/helpers.ts';
import { accounts } from '../accounts/schema.ts';
import { moveMoney } from '../accounts/service.ts';
import { users } from '../auth/schema.ts';

let ctx: TestContext;
let t: TestTenant;
const tokens: Record<string, string> = {};
const post = (url: string, body: unknown, who: string) =>
  call(ctx, 'POST', url, body, { host: t.host, token: tokens[who], language: 'en-US' });

beforeAll(async () => {
  ctx = await createTestApp();
  t = await createTenant(ctx);
  for (const who of ['admin', 'customer', 'direct', 'agent'] as const)
    tokens[who] = await signInAs(ctx, t, who);
  // The customer paid 120.00 and 30.50 for orders and got 10.00 back.
  const db = ctx.database.db;
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, t.tenant.id), eq(users.email, t.email('customer'))));
  const [account] = await db
    .select()
    .from(accounts)
    .where(
      and(
        eq(accounts.tenantId, t.tenant.id),
        eq(accounts.organisationId, user?.organisationId as number),
        eq(accounts.line, 'truck'),
      ),
    );
  const accountId = account?.id as number;
  await moveMoney(db, { tenantId: t.tenant.id, accountId, type: 'recharge', amount: 50_000n });
  await moveMoney(db, { tenantId: t.tenant.id, accountId, type: 'order_payment', amount: -12_000n });
  await moveMoney(db, { tenantId: t.tenant.id, accountId, type: 'order_payment', amount: -3_050n });
  await moveMoney(db, { tenantId: t.tenant.id, accountId, type: 'refund', amount: 1_000n });
});
afterAll(() => ctx.close());

const period = () => ({
  periodFrom: new Date(Date.now() - 86_400_000).toISOString(),
  periodTo: new Date(Date.now() + 86_400_000).toISOString(),
});

describe('invoices', () => {
  it('requests an invoice for the order payments less refunds of the period, and staff issue it once', async () => {
    const req = await post(
      '/api/admin/invoice/request',
      { line: 'truck', ...period(), title: 'Acme Imports', taxNumber: '91310000X', email: 'ap@acme.test' },
      'customer',
    );
    expect(req.json().data).toMatchObject({ status: 'requested', amount: '140.50' });
    const id = req.json().data.id;
    const issued = await post('/api/admin/invoice/issue', { id, invoiceNumber: 'INV-0001' }, 'admin');
    expect(issued.json().data).toMatchObject({ status: 'issued', invoiceNumber: 'INV-0001' });
    expect((await post('/api/admin/invoice/refuse', { id, reason: 'late' }, 'admin')).json().code).toBe(409);
    const mine = await post('/api/admin/invoice/list', { page: 1, limit: 10 }, 'customer');
    expect(mine.json().data.list[0]).toMatchObject({
      id,
      status: 'issued',
      organisationName: 'Acme Imports',
    });
  });

  it('refuses a period with nothing to invoice, and a period that ends before it starts', async () => {
    const empty = await post(
      '/api/admin/invoice/request',
      { line: 'truck', ...period(), title: 'N', taxNumber: '1', email: 'a@b.test' },
      'direct',
    );
    expect(badFields(empty)).toEqual(['periodFrom']);
    const backwards = await post(
      '/api/admin/invoice/request',
      {
        line: 'truck',
        periodFrom: period().periodTo,
        periodTo: period().periodFrom,
        title: 'N',
        taxNumber: '1',
        email: 'a@b.test',
      },
      'customer',
    );
    expect(badFields(backwards)).toEqual(['periodTo']);
  });

  it("lets only staff decide, and keeps one customer's invoices from another", async () => {
    const req = await post(
      '/api/admin/invoice/request',
      { line: 'truck', ...period(), title: 'Acme', taxNumber: '9', email: 'ap@acme.test' },
      'customer',
    );
    const id = req.json().data.id;
    expect((await post('/api/admin/invoice/issue', { id, invoiceNumber: 'X' }, 'customer')).json().code).toBe(
      401,
    );
    const others = await post('/api/admin/invoice/list', { page: 1, limit: 10 }, 'direct');
    expect(others.json().data.list.map((r: any) => r.id)).not.toContain(id);
    const refused = await post('/api/admin/invoice/refuse', { id, reason: 'wrong tax number' }, 'admin');
    expect(refused.json().data).toMatchObject({ status: 'refused', refusalReason: 'wrong tax number' });
  });
});
