/**
 * Debits per second on one hot account and spread over 1,000 accounts, on PGlite and on PostgreSQL,
 * each next to the same debit written as plain SQL (the conditional UPDATE ... RETURNING and the
 * ledger INSERT in one transaction) at the same concurrency in the same run, and to a bare `select 1`;
 * the ledger invariant (balance = sum of ledger rows) is checked after each run.
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
  // The floor a debit can reach: the two statements of the money rule, nothing else.
  const rawDebit = (accountId: number) =>
    db.transaction(async (tx) => {
      const moved = (await tx.execute(sql`
        update accounts set balance_cents = balance_cents - 1, updated_at = now()
         where tenant_id = ${tenant.id} and id = ${accountId} and status = 'normal'
           and balance_cents + credit_limit_cents - frozen_cents - 1 >= 0
        returning balance_cents`)) as unknown as { rows: { balance_cents: string }[] };
      const after = moved.rows[0]?.balance_cents;
      if (after === undefined) throw new Error('raw debit refused');
      await tx.execute(sql`
        insert into ledger_entries (tenant_id, account_id, type, amount_cents, balance_after_cents)
        values (${tenant.id}, ${accountId}, 'order_payment', -1, ${after})`);
    });
  const rawHot = await timed(DEBITS, () => rawDebit(hot));
  const rawSpread = await timed(DEBITS, (i) => rawDebit(accounts[i % accounts.length] as number));
  // As the product pays: each debit under its own idempotency key and reference.
  const debit = (accountId: number, key: string) =>
    moveMoney(db, {
      tenantId: tenant.id,
      accountId,
      type: 'order_payment',
      amount: -1n,
      refType: 'bench',
      refId: key,
      idempotencyKey: `bench:${key}`,
    });
  const hotRate = await timed(DEBITS, (i) => debit(hot, `hot-${i}`));
  const spreadRate = await timed(DEBITS, (i) =>
    debit(accounts[i % accounts.length] as number, `spread-${i}`),
  );
  const mismatches = await ledgerMismatches(db, tenant.id);
  const row = (name: string, value: number, base = baseline, baseName = 'select 1') =>
    console.log(
      `${kind.padEnd(9)} ${name.padEnd(34)} ${value.toFixed(0).padStart(8)} /s      ${(value / base).toFixed(3)} × ${baseName}`,
    );
  row('select 1 (baseline)', baseline);
  row('raw SQL debit, one hot account', rawHot);
  row('raw SQL debit, 1,000 accounts', rawSpread);
  row('debit, one hot account', hotRate, rawHot, 'raw SQL debit, one hot account');
  row('debit, 1,000 accounts', spreadRate, rawSpread, 'raw SQL debit, 1,000 accounts');
  console.log(
    `${kind.padEnd(9)} ${'ledger invariant'.padEnd(34)} ${mismatches.length === 0 ? 'holds' : `BROKEN on ${mismatches.length} accounts`}`,
  );
  if (mismatches.length > 0) process.exitCode = 1;
}
