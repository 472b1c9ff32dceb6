import { and, eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import type { Db } from '../../db/client.ts';
import { createOrganisation } from '../customers/service.ts';
import { accounts, ledgerEntries } from './schema.ts';
import {
  ensureAccount,
  findAccount,
  InsufficientFundsError,
  ledgerMismatches,
  moveMoney,
} from './service.ts';

const f = useTestApp();
let db: Db;
let tenantId: number;

beforeAll(() => {
  db = f.db;
  tenantId = f.t.tenant.id;
});
afterEach(async () => {
  // The money invariant holds after every test: balance = sum of ledger rows, for every account.
  expect(await ledgerMismatches(db)).toEqual([]);
});

async function freshAccount(credit = 0n) {
  const org = await createOrganisation(db, tenantId, { type: 'customer', name: `Shipper ${Math.random()}` });
  const account = await ensureAccount(db, tenantId, org.id, 'truck');
  if (credit > 0n) await moveMoney(db, { tenantId, accountId: account.id, type: 'recharge', amount: credit });
  return account.id;
}

async function ledgerOf(accountId: number) {
  return db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.tenantId, tenantId), eq(ledgerEntries.accountId, accountId)));
}

describe('moving money', () => {
  it('credits and debits with one ledger row each, carrying the balance after', async () => {
    const accountId = await freshAccount(10_000n);
    const debit = await moveMoney(db, {
      tenantId,
      accountId,
      type: 'order_payment',
      amount: -2_550n,
      refType: 'order',
      refId: 'T1',
    });
    expect(debit.balanceAfter).toBe(7_450n);
    const rows = await ledgerOf(accountId);
    expect(rows.map((r) => [r.type, r.amount, r.balanceAfter])).toEqual([
      ['recharge', 10_000n, 10_000n],
      ['order_payment', -2_550n, 7_450n],
    ]);
  });

  it('refuses a debit beyond available funds and writes no ledger row', async () => {
    const accountId = await freshAccount(1_000n);
    await expect(
      moveMoney(db, { tenantId, accountId, type: 'order_payment', amount: -1_001n }),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    expect((await findAccount(db, tenantId, accountId))?.balance).toBe(1_000n);
    expect(await ledgerOf(accountId)).toHaveLength(1);
  });

  it('lets a debit use the credit limit but not the frozen amount', async () => {
    const accountId = await freshAccount(1_000n);
    await db
      .update(accounts)
      .set({ creditLimit: 500n, frozen: 200n })
      .where(and(eq(accounts.tenantId, tenantId), eq(accounts.id, accountId)));
    await moveMoney(db, { tenantId, accountId, type: 'order_payment', amount: -1_300n });
    await expect(
      moveMoney(db, { tenantId, accountId, type: 'order_payment', amount: -1n }),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    expect((await findAccount(db, tenantId, accountId))?.balance).toBe(-300n);
  });

  it('changes nothing the second time a movement with the same key is made, and says so', async () => {
    const accountId = await freshAccount(5_000n);
    const first = await moveMoney(db, {
      tenantId,
      accountId,
      type: 'order_payment',
      amount: -1_000n,
      idempotencyKey: 'pay:A',
    });
    const second = await moveMoney(db, {
      tenantId,
      accountId,
      type: 'order_payment',
      amount: -1_000n,
      idempotencyKey: 'pay:A',
    });
    expect(first.repeated).toBe(false);
    expect(second).toEqual({ entryId: first.entryId, balanceAfter: 4_000n, repeated: true });
    expect((await findAccount(db, tenantId, accountId))?.balance).toBe(4_000n);
  });

  it('credits once when the same recharge approval arrives twice at the same moment', async () => {
    const accountId = await freshAccount();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        moveMoney(db, {
          tenantId,
          accountId,
          type: 'recharge',
          amount: 30_000n,
          idempotencyKey: 'recharge:42',
        }),
      ),
    );
    expect(results.filter((r) => !r.repeated)).toHaveLength(1);
    expect((await findAccount(db, tenantId, accountId))?.balance).toBe(30_000n);
    expect(await ledgerOf(accountId)).toHaveLength(1);
  });

  it('lets exactly N of 200 concurrent debits through when the funds cover N', async () => {
    const n = 37;
    const accountId = await freshAccount(BigInt(n) * 1_000n);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) =>
        moveMoney(db, { tenantId, accountId, type: 'order_payment', amount: -1_000n, refId: String(i) }),
      ),
    );
    const ok = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(ok).toHaveLength(n);
    expect(refused).toHaveLength(200 - n);
    for (const r of refused)
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientFundsError);
    expect((await findAccount(db, tenantId, accountId))?.balance).toBe(0n);
    expect(await ledgerOf(accountId)).toHaveLength(n + 1);
  });

  it('leaves neither the balance change nor the ledger row when the transaction dies midway', async () => {
    const accountId = await freshAccount(2_000n);
    await expect(
      db.transaction(async (tx) => {
        await moveMoney(tx, { tenantId, accountId, type: 'order_payment', amount: -500n });
        throw new Error('crash after the ledger row, before commit');
      }),
    ).rejects.toThrow('crash');
    expect((await findAccount(db, tenantId, accountId))?.balance).toBe(2_000n);
    expect(await ledgerOf(accountId)).toHaveLength(1);
  });
});
