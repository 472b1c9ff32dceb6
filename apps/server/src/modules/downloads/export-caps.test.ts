import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { createExportFile, MAX_EXPORTS_WAITING_PER_USER } from './service.ts';

const f = useTestApp({
  tenants: 1,
  signIn: ['admin', 'customer'],
  language: 'en-US',
  // Every export goes to the download centre: none is small enough to answer at once.
  app: { config: { EXPORT_AT_ONCE_ROWS: 0, RATE_LIMIT_SCALE: 1 } },
});

/** An export file the way a request makes one, with no job behind it: it stays queued. */
const fileOf = (userId: number) => ({
  tenantId: f.t.tenant.id,
  userId,
  kind: 'truck-orders' as const,
  title: 'orders',
  params: {},
  language: 'en-US' as const,
});

beforeAll(async () => {
  // One order of the customer's, so an export has a row and goes to the download centre.
  await f.db.execute(sql`
    insert into truck_orders (tenant_id, order_no, query_code, organisation_id, user_id, carrier, mode, status,
      shipment, quote, levels, total_cents, origin, destination, transit_days_min, transit_days_max,
      pickup_code, delivery_code, customer_order_no)
    values (${f.t.tenant.id}, 'T000001', 'Q1', ${await f.orgOf('customer')}, ${await f.userOf('customer')}, 'Carrier',
      'LTL', 'unpaid', '{}'::jsonb, '{}'::jsonb, '[]'::jsonb, 10000, 'Los Angeles, CA 90001', 'Dallas, TX 75201',
      2, 5, '000000', '000000', 'PO-1')`);
});

describe('exports waiting per user', () => {
  it('counts a burst one request at a time: no more than the cap are made however many arrive together', async () => {
    const agent = await f.userOf('agent');
    const made = await Promise.allSettled(
      Array.from({ length: 8 }, () => createExportFile(f.db, fileOf(agent))),
    );
    expect(made.filter((r) => r.status === 'fulfilled')).toHaveLength(MAX_EXPORTS_WAITING_PER_USER);
    for (const r of made.filter((r) => r.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ key: 'download.tooManyWaiting' });
  });

  it("refuses a user's export past the cap with a 429 in their language, while a colleague's still queues", async () => {
    const customer = await f.userOf('customer');
    for (let i = 0; i < MAX_EXPORTS_WAITING_PER_USER; i++) await createExportFile(f.db, fileOf(customer));
    const refused = await f.as('customer').post('/api/admin/order/export', { page: 1, limit: 10 });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().msg).toBe(
      `You already have ${MAX_EXPORTS_WAITING_PER_USER} exports being made; wait for one to finish before starting another`,
    );
    const zh = await f.as('customer').in('zh-CN').post('/api/admin/order/export', { page: 1, limit: 10 });
    expect(zh.json().msg).toBe(
      `您已有 ${MAX_EXPORTS_WAITING_PER_USER} 个导出在生成中,请等其中一个完成后再导出`,
    );
    // The administrator's own export is not held back by the customer's pile.
    const mine = await f.as('admin').post('/api/admin/order/export', { page: 1, limit: 10 });
    expect(mine.json()).toMatchObject({ code: 200, data: { queued: true } });
  });
});
