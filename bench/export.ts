/**
 * The download centre's export of a big tenant (PostgreSQL only): 1,000,000 truck orders written by the
 * export job (keyset pages from the database, exceljs's streaming writer to a file), next to the same
 * number of rows of the same columns written by exceljs's streaming writer alone, in the same run. Also
 * the peak resident memory while each runs: flat memory is the point of streaming.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { buildApp } from '../apps/server/src/app.ts';
import { testConfig } from '../apps/server/src/config.ts';
import type { Database } from '../apps/server/src/db/client.ts';
import { seedTenant } from '../apps/server/src/db/seed.ts';
import { findUserByEmail } from '../apps/server/src/modules/auth/service.ts';
import { runExportJob } from '../apps/server/src/modules/downloads/runner.ts';
import { createExportFile, findExportFile } from '../apps/server/src/modules/downloads/service.ts';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);

/** Runs `work` while sampling the resident set; answers its rows per second and the peak RSS. */
async function measured(rows: number, work: () => Promise<void>) {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  return {
    rate: rows / seconds,
    seconds,
    peakMb: peak / 1024 / 1024,
    growthMb: (peak - before) / 1024 / 1024,
  };
}

export async function benchExport(kind: 'pglite' | 'postgres', database: Database) {
  if (kind !== 'postgres') return;
  const db = database.db;
  const code = `bench-export-${Date.now()}`;
  const { tenant } = await seedTenant(db, { code, name: 'Bench export', emailDomain: `${code}.example.com` });
  const admin = await findUserByEmail(db, tenant.id, `admin@${code}.example.com`);
  const customer = await findUserByEmail(db, tenant.id, `customer@${code}.example.com`);
  if (!admin || !customer?.organisationId) throw new Error('bench tenant has no demo users');

  const generated = performance.now();
  await db.execute(sql`
    insert into truck_orders (tenant_id, order_no, query_code, organisation_id, user_id, carrier, mode, status,
      shipment, quote, levels, total_cents, origin, destination, transit_days_min, transit_days_max,
      pickup_code, delivery_code, customer_order_no, created_at)
    select ${tenant.id}, 'X' || g, 'Q' || g, ${customer.organisationId}, ${customer.id}, 'Carrier ' || (g % 20), 'LTL',
      (array['unpaid','pending_review','to_be_picked_up','picked_up','in_transit','delivered','cancelled'])[1 + g % 7],
      '{}'::jsonb, '{}'::jsonb, '[]'::jsonb, 10000 + g % 50000, 'Los Angeles, CA 90001', 'Dallas, TX 75201', 2, 5,
      '000000', '000000', 'PO-X' || g, now() - (g || ' seconds')::interval
    from generate_series(1, ${ROWS}) as g`);
  await db.execute(sql`vacuum analyze truck_orders`);
  console.log(
    `${kind.padEnd(9)} generated ${ROWS} orders for the export in ${((performance.now() - generated) / 1000).toFixed(1)} s`,
  );

  const dataDir = mkdtempSync(join(tmpdir(), 'fp-bench-export-'));
  const app = await buildApp({
    config: testConfig({ DATA_DIR: dataDir }),
    database,
    mailer: null,
    serveWeb: false,
  });
  await app.ready();
  try {
    // Baseline: the streaming writer alone, the same number of rows of the same columns, no database.
    const baseline = await measured(ROWS, async () => {
      const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
        filename: join(dataDir, 'baseline.xlsx'),
        useStyles: true,
        useSharedStrings: false,
      });
      const sheet = workbook.addWorksheet('Sheet1');
      sheet.addRow(Array.from({ length: 17 }, (_, i) => `Column ${i}`)).commit();
      const at = new Date().toISOString();
      for (let g = 1; g <= ROWS; g++)
        sheet
          .addRow([
            `X${g}`,
            `PO-X${g}`,
            `Q${g}`,
            'Delivered',
            'LTL',
            `Carrier ${g % 20}`,
            'Los Angeles, CA 90001',
            'Dallas, TX 75201',
            '100.00',
            '0.00',
            '0.00',
            '0.00',
            '100.00',
            '80.00',
            null,
            null,
            at,
          ])
          .commit();
      sheet.commit();
      await workbook.commit();
    });

    // The export job as it runs from the queue, called here directly so the timing is its own.
    const row = await createExportFile(db, {
      tenantId: tenant.id,
      userId: admin.id,
      kind: 'truck-orders',
      title: 'bench',
      params: {},
      language: 'en-US',
    });
    const job = await measured(ROWS, () =>
      runExportJob(app, { data: { exportId: row.id }, tenantId: tenant.id, retryCount: 0 }),
    );
    const done = await findExportFile(db, tenant.id, row.id);
    if (done?.status !== 'done' || done.rowsDone !== ROWS)
      throw new Error(`bench export did not finish: ${done?.status} ${done?.rowsDone} ${done?.error}`);

    const line = (name: string, m: Awaited<ReturnType<typeof measured>>) =>
      console.log(
        `${kind.padEnd(9)} ${name.padEnd(34)} ${m.rate.toFixed(0).padStart(8)} rows/s  ${(m.rate / baseline.rate).toFixed(3)} × streaming writer alone  ` +
          `(${m.seconds.toFixed(1)} s, peak RSS ${m.peakMb.toFixed(0)} MB, +${m.growthMb.toFixed(0)} MB)`,
      );
    line(`streaming writer alone (${ROWS})`, baseline);
    line(`export job, ${ROWS} orders`, job);
    console.log(`${kind.padEnd(9)}   export file ${(done.sizeBytes / 1024 / 1024).toFixed(1)} MB`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
