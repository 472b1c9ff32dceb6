import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ResultCode } from '@freight/contracts/api';
import { EXPORT_AT_ONCE_MAX_ROWS } from '@freight/contracts/downloads';
import { translate } from '@freight/contracts/messages';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { type Caller, useTestApp } from '../../../test/fixture.ts';
import { call } from '../../../test/helpers.ts';
import { moduleSweeps, runHousekeeping } from '../../plugins/housekeeping.ts';
import { localUploadStore } from '../uploads/service.ts';
import { EXPORT_QUEUE } from './runner.ts';
import { findExportFile } from './service.ts';

const f = useTestApp({ tenants: 2, signIn: [['admin', 'customer', 'agent'], ['admin']] });

const ORDERS = 5_500;

/**
 * Orders written straight in SQL (as the bench does): several share one instant and others lie
 * microseconds apart, so a page boundary falls inside a tie and inside one millisecond.
 */
async function seedOrders(tenantId: number, organisationId: number, n: number, prefix: string) {
  await f.db.execute(sql`
    insert into truck_orders (tenant_id, order_no, query_code, organisation_id, user_id, carrier, mode, status,
      shipment, quote, levels, total_cents, origin, destination, transit_days_min, transit_days_max,
      pickup_code, delivery_code, customer_order_no, created_at)
    select ${tenantId}, ${prefix} || lpad(g::text, 6, '0'), 'Q' || g, ${organisationId}, 1, 'Carrier ' || (g % 20), 'LTL',
      (array['unpaid','pending_review','to_be_picked_up','picked_up','in_transit','delivered','cancelled'])[1 + g % 7],
      '{}'::jsonb, '{}'::jsonb, '[]'::jsonb, 10000 + g, 'Los Angeles, CA 90001', 'Dallas, TX 75201', 2, 5,
      '000000', '000000', 'PO-' || g, timestamptz '2026-01-01 00:00:00Z' + ((g / 3) * 0.0007 || ' seconds')::interval
    from generate_series(1, ${n}) as g`);
}

/** Asks for the export; answers the download centre's id of the queued file. */
async function queueOrderExport(as: Caller, body: object = { page: 1, limit: 10 }) {
  const res = await as.post('/api/admin/order/export', body);
  expect(res.headers['content-type']).toContain('application/json');
  const json = res.json();
  expect(json).toMatchObject({ code: 200, data: { queued: true } });
  return json.data.id as number;
}

async function waitDone(as: Caller, id: number) {
  const row = await findExportFile(f.db, as.tenant.tenant.id, id);
  if (!row?.jobId) throw new Error('no job');
  await f.ctx.app.jobs.settled(EXPORT_QUEUE, row.jobId, { timeoutMs: 60_000 });
  const list = await as.ok('/api/admin/download/list', { page: 1, limit: 50 });
  return list.list.find((d: { id: number }) => d.id === id);
}

async function downloadFile(as: Caller, id: number) {
  const res = await call(
    f.ctx,
    'POST',
    '/api/admin/download/file',
    { id },
    { host: as.tenant.host, token: as.token },
  );
  return res;
}

async function sheetRows(buffer: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('no sheet');
  const rows: unknown[][] = [];
  sheet.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1));
  });
  return rows;
}

describe('download centre', () => {
  it('queues a big export, writes every row in the list order, and lets its owner download it once ready', async () => {
    const admin = f.as('admin');
    await seedOrders(f.t.tenant.id, await f.orgOf('customer'), ORDERS, 'BIG');
    expect(await admin.ok('/api/admin/download/count')).toEqual({ ready: 0, active: 0 });

    const id = await queueOrderExport(admin.in('en-US'));
    const done = await waitDone(admin, id);
    expect(done).toMatchObject({
      kind: 'truck-orders',
      status: 'done',
      rowsDone: ORDERS,
      rowsTotal: ORDERS,
      seen: false,
      error: '',
    });
    expect(done.title).toMatch(/^Truck orders \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    expect(done.sizeBytes).toBeGreaterThan(10_000);
    const keptFor = new Date(done.expiresAt).getTime() - Date.now();
    expect(keptFor).toBeGreaterThan(6.9 * 24 * 3600_000);
    expect(keptFor).toBeLessThan(7.1 * 24 * 3600_000);
    // The top bar counts it until it is downloaded.
    expect(await admin.ok('/api/admin/download/count')).toEqual({ ready: 1, active: 0 });

    const res = await downloadFile(admin, id);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.headers['content-disposition']).toContain(`truck-orders-${id}.xlsx`);
    expect(res.rawPayload.length).toBe(done.sizeBytes);
    const rows = await sheetRows(res.rawPayload);
    expect(rows[0]?.[0]).toBe(translate('en-US', 'orderField.orderNo'));
    const expected = await f.db.execute(
      sql`select order_no from truck_orders where tenant_id = ${f.t.tenant.id} order by created_at desc, id desc`,
    );
    const numbers = ((expected as unknown as { rows: { order_no: string }[] }).rows ?? expected).map(
      (r) => r.order_no,
    );
    expect(numbers).toHaveLength(ORDERS);
    expect(rows.slice(1).map((r) => r[0])).toEqual(numbers);
    expect(await admin.ok('/api/admin/download/count')).toEqual({ ready: 0, active: 0 });
  });

  it('answers a small export at once, as a file, with nothing in the download centre', async () => {
    const agent = f.as('agent');
    const before = await agent.ok('/api/admin/download/list', { page: 1, limit: 10 });
    const res = await agent.post('/api/admin/order/export', { page: 1, limit: 10, keyword: 'BIG00001' });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const rows = await sheetRows(res.rawPayload);
    expect(rows.length).toBeLessThanOrEqual(EXPORT_AT_ONCE_MAX_ROWS + 1);
    expect((await agent.ok('/api/admin/download/list', { page: 1, limit: 10 })).total).toBe(before.total);
  });

  it("shows, downloads, retries and deletes only the owner's files: anyone else is told 404", async () => {
    const admin = f.as('admin');
    const [file] = (await admin.ok('/api/admin/download/list', { page: 1, limit: 10, status: 'done' })).list;
    expect(file).toBeTruthy();
    const stranger = f.as('customer');
    const otherTenant = f.as('admin', f.tenant(1));
    for (const other of [stranger, otherTenant]) {
      expect((await other.ok('/api/admin/download/list', { page: 1, limit: 10 })).list).toEqual([]);
      expect((await downloadFile(other, file.id)).json()).toMatchObject({ code: ResultCode.NotFound });
      await other.fail('/api/admin/download/retry', { id: file.id }, ResultCode.NotFound);
      await other.fail('/api/admin/download/delete', { id: file.id }, ResultCode.NotFound);
    }
    // A finished file is not asked for again: only a failed or expired one.
    await admin.fail('/api/admin/download/retry', { id: file.id }, ResultCode.Conflict);
    expect((await downloadFile(admin, file.id)).statusCode).toBe(200);
  });

  it('sweeps a file past its keeping time, and a retry writes it again', async () => {
    const admin = f.as('admin');
    const [file] = (await admin.ok('/api/admin/download/list', { page: 1, limit: 10, status: 'done' })).list;
    const row = await findExportFile(f.db, f.t.tenant.id, file.id);
    const path = join(resolve(f.ctx.app.config.DATA_DIR), row?.filePath ?? '');
    expect(existsSync(path)).toBe(true);
    await f.db.execute(
      sql`update export_files set expires_at = now() - interval '1 minute' where tenant_id = ${f.t.tenant.id} and id = ${file.id}`,
    );
    const dataDir = f.ctx.app.config.DATA_DIR;
    let removed: Record<string, number> | null = null;
    for (let i = 0; i < 100 && !removed; i++) {
      removed = await runHousekeeping(f.ctx.database, moduleSweeps(localUploadStore(dataDir), dataDir));
      if (!removed) await new Promise((r) => setTimeout(r, 50));
    }
    expect(removed?.['expired exports']).toBe(1);
    expect(existsSync(path)).toBe(false);
    const [expired] = (await admin.ok('/api/admin/download/list', { page: 1, limit: 10, status: 'expired' }))
      .list;
    expect(expired).toMatchObject({ id: file.id, status: 'expired', sizeBytes: 0 });
    expect((await downloadFile(admin, file.id)).json()).toMatchObject({ code: ResultCode.NotFound });

    const retried = await admin.ok('/api/admin/download/retry', { id: file.id });
    expect(retried).toMatchObject({ id: file.id, status: 'queued', rowsDone: 0 });
    const again = await waitDone(admin, file.id);
    expect(again).toMatchObject({ status: 'done', rowsDone: ORDERS });
    expect(existsSync(path)).toBe(true);
  });

  it('retries a failed export, and deletes an export with its file', async () => {
    const admin = f.as('admin');
    const id = await queueOrderExport(admin);
    await waitDone(admin, id);
    await f.db.execute(
      sql`update export_files set status = 'failed', error = 'disk full' where tenant_id = ${f.t.tenant.id} and id = ${id}`,
    );
    const failed = (await admin.ok('/api/admin/download/list', { page: 1, limit: 10, status: 'failed' }))
      .list;
    expect(failed).toEqual([expect.objectContaining({ id, error: 'disk full' })]);
    await admin.ok('/api/admin/download/retry', { id });
    const done = await waitDone(admin, id);
    expect(done).toMatchObject({ status: 'done', error: '', rowsDone: ORDERS });

    const row = await findExportFile(f.db, f.t.tenant.id, id);
    const path = join(resolve(f.ctx.app.config.DATA_DIR), row?.filePath ?? '');
    expect(existsSync(path)).toBe(true);
    await admin.ok('/api/admin/download/delete', { id });
    expect(existsSync(path)).toBe(false);
    expect(await findExportFile(f.db, f.t.tenant.id, id)).toBeNull();
    expect((await downloadFile(admin, id)).json()).toMatchObject({ code: ResultCode.NotFound });
  });

  it('filters the list by status, kind and day, and marks files seen', async () => {
    const admin = f.as('admin');
    const all = await admin.ok('/api/admin/download/list', { page: 1, limit: 10 });
    expect(all.total).toBeGreaterThan(0);
    expect(
      (await admin.ok('/api/admin/download/list', { page: 1, limit: 10, kind: 'express-waybills' })).total,
    ).toBe(0);
    expect(
      (
        await admin.ok('/api/admin/download/list', {
          page: 1,
          limit: 10,
          from: '2000-01-01',
          to: '2000-01-02',
        })
      ).total,
    ).toBe(0);
    await admin.ok('/api/admin/download/seen', {});
    expect(await admin.ok('/api/admin/download/count')).toEqual({ ready: 0, active: 0 });
  });
});

describe('progress of a long export', () => {
  it('is seen page by page while the file is written, on either database', async () => {
    // The second tenant's, so the other tests' counts of the first tenant's orders stay as they are.
    const other = f.tenant(1);
    const admin = f.as('admin', other);
    await seedOrders(other.tenant.id, await f.orgOf('customer', other), 20_000, 'PRG');
    const id = await queueOrderExport(admin);
    const seen = new Set<number>();
    for (let i = 0; i < 600; i++) {
      const list = await admin.ok('/api/admin/download/list', { page: 1, limit: 50 });
      const row = list.list.find((d: { id: number }) => d.id === id);
      if (row.status === 'done') break;
      if (row.status === 'running') seen.add(row.rowsDone);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The download centre's answers come between the pages: it sees the rows grow, not only the end.
    const between = [...seen].filter((n) => n > 0 && n < 20_000);
    expect(between.length).toBeGreaterThanOrEqual(2);
  });
});
