import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { seedTenant } from '../../db/seed.ts';
import { listReceivingAccounts } from './service.ts';

const f = useTestApp({ signIn: ['admin', 'customer'] });

describe('receiving account names', () => {
  it('names a new tenant’s accounts in both languages, its English name to English readers', async () => {
    const { tenant } = await seedTenant(f.db, {
      code: 'names-test',
      name: '货运门户',
      nameEn: 'Freight Portal',
      emailDomain: 'names.example.com',
    });
    const accounts = await listReceivingAccounts(f.db, tenant.id, true);
    expect(accounts.map((a) => [a.accountName, a.accountNameEn])).toEqual([
      ['货运门户', 'Freight Portal'],
      ['货运门户', 'Freight Portal'],
    ]);
  });

  it('keeps the English account name staff write, and answers it to submitters', async () => {
    const saved = await f.as('admin').ok('/api/admin/recharge/receivingAccount/save', {
      currency: 'USD',
      bankName: '美国银行',
      bankNameEn: 'Bank of America',
      accountName: '某某物流',
      accountNameEn: 'Some Logistics LLC',
      accountNumber: '9999 0000',
    });
    expect(saved).toBeTruthy();
    const list = (await f.as('customer').ok('/api/admin/recharge/receivingAccounts', { line: 'express' }))
      .list;
    expect(list).toContainEqual(
      expect.objectContaining({ accountName: '某某物流', accountNameEn: 'Some Logistics LLC' }),
    );
  });
});
