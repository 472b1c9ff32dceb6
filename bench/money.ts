/**
 * Debits per second on one hot account and spread over 1,000 accounts, on PGlite and on PostgreSQL,
 * each next to a bare `select 1` round trip on the same database in the same run; the ledger
 * invariant (balance = sum of ledger rows) is checked after each run.
 */

import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.ts';
import { ensureAccount, ledgerMismatches, moveMoney } from '../apps/server/src/modules/accounts/service.ts';
import { createOrganisation } from '../apps/server/src/modules/customers/service.ts';
import { createTenant } from '../apps/server/src/modules/site/service.ts';

const DEBITS = Number(process.env.BENCH_DEBITS ?? 2000);
const CONCURRENCY = 10;

async function timed(count: number, work: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await work(next++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

export async function benchMoney(kind: string, database: Database) {
  const db = database.db;
  const tenant = await createTenant(db, { code: `bench-money-${Date.now()}`, name: 'Bench money' });
  const accounts: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const org = await createOrganisation(db, tenant.id, { type: 'customer', name: `Shipper ${i}` });
    const account = await ensureAccount(db, tenant.id, org.id, 'truck');
    await moveMoney(db, { tenantId: tenant.id, accountId: account.id, type: 'recharge', amount: 1_000_000n });
    accounts.push(account.id);
  }
  const baseline = await timed(DEBITS, () => db.execute(sql`select 1`));
  const hot = accounts[0] as number;
  const hotRate = await timed(DEBITS, () =>
    moveMoney(db, { tenantId: tenant.id, accountId: hot, type: 'order_payment', amount: -1n }),
  );
  const spreadRate = await timed(DEBITS, (i) =>
    moveMoney(db, {
      tenantId: tenant.id,
      accountId: accounts[i % accounts.length] as number,
      type: 'order_payment',
      amount: -1n,
    }),
  );
  const mismatches = await ledgerMismatches(db, tenant.id);
  const row = (name: string, value: number) =>
    console.log(
      `${kind.padEnd(9)} ${name.padEnd(26)} ${value.toFixed(0).padStart(8)} /s      ${(value / baseline).toFixed(3)} × select 1`,
    );
  row('select 1 (baseline)', baseline);
  row('debit, one hot account', hotRate);
  row('debit, 1,000 accounts', spreadRate);
  console.log(
    `${kind.padEnd(9)} ledger invariant           ${mismatches.length === 0 ? 'holds' : `BROKEN on ${mismatches.length} accounts`}`,
  );
  if (mismatches.length > 0) process.exitCode = 1;
}
