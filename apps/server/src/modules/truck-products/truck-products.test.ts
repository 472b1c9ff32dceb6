import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields, type Who } from '../../../test/helpers.ts';
import { findUserByEmail } from '../auth/service.ts';

const f = useTestApp({ tenants: 2, signIn: [['admin', 'customer', 'direct'], ['admin']], language: 'en-US' });
const post = (url: string, body: unknown, who: Who, tenant = f.t) => f.as(who, tenant).post(url, body);

const product = (extra: Record<string, unknown> = {}) => ({
  code: 'LTL-STD',
  name: '零担标准',
  nameEn: 'LTL standard',
  carrier: 'Roadrunner',
  mode: 'LTL',
  transitDaysMin: 2,
  transitDaysMax: 5,
  ...extra,
});

describe('truck products', () => {
  it('lets staff create products and customers list only the enabled ones', async () => {
    expect((await post('/api/admin/product/save', product(), 'admin')).json().code).toBe(200);
    expect(
      (
        await post(
          '/api/admin/product/save',
          product({ code: 'FTL-OLD', mode: 'FTL', enabled: false }),
          'admin',
        )
      ).json().code,
    ).toBe(200);
    const staff = await post('/api/admin/product/list', { page: 1, limit: 10 }, 'admin');
    expect(
      staff
        .json()
        .data.list.map((p: any) => p.code)
        .sort(),
    ).toEqual(['FTL-OLD', 'LTL-STD']);
    const customer = await post('/api/admin/product/list', { page: 1, limit: 10 }, 'customer');
    expect(customer.json().data.list.map((p: any) => p.code)).toEqual(['LTL-STD']);
    const foreign = await post('/api/admin/product/list', { page: 1, limit: 10 }, 'admin', f.tenant(1));
    expect(foreign.json().data.list).toEqual([]);
  });

  it('shows a product restricted to some organisations only to them and those under them', async () => {
    const orgOf = async (who: 'agent' | 'direct') =>
      (await findUserByEmail(f.db, f.t.tenant.id, f.t.email(who)))?.organisationId as number;
    const saved = await post(
      '/api/admin/product/save',
      product({ code: 'LTL-AGENT', organisationIds: [await orgOf('agent')] }),
      'admin',
    );
    expect(saved.json().code).toBe(200);
    const codes = async (who: Who) =>
      (await post('/api/admin/product/list', { page: 1, limit: 10 }, who))
        .json()
        .data.list.map((p: any) => p.code);
    // The customer sits under the agent; the direct customer does not.
    expect(await codes('customer')).toContain('LTL-AGENT');
    expect(await codes('direct')).not.toContain('LTL-AGENT');
    expect(await codes('direct')).toContain('LTL-STD');
    await post(
      '/api/admin/product/save',
      { ...product({ code: 'LTL-AGENT', enabled: false }), id: saved.json().data.id },
      'admin',
    );
  });

  it('names bad fields: a taken code, transit days out of order; customers may not save', async () => {
    expect(badFields(await post('/api/admin/product/save', product(), 'admin'))).toEqual(['code']);
    expect(
      badFields(
        await post(
          '/api/admin/product/save',
          product({ code: 'X1', transitDaysMin: 5, transitDaysMax: 2 }),
          'admin',
        ),
      ),
    ).toEqual(['transitDaysMax']);
    expect((await post('/api/admin/product/save', product({ code: 'X2' }), 'customer')).json().code).toBe(
      401,
    );
  });
});

describe('quote helpers', () => {
  it('suggests the freight class from density for each line', async () => {
    const res = await post(
      '/api/admin/quotation/getClass',
      {
        lines: [
          { quantity: 1, length: 48, width: 40, height: 48, totalWeight: 1000 },
          { quantity: 2, length: 48, width: 48, height: 72, totalWeight: 600 },
        ],
      },
      'customer',
    );
    expect(res.json().data.lines).toEqual([
      { cubicFeet: 53.33, density: 18.75, suggestedClass: '70', freightClass: '70' },
      { cubicFeet: 192, density: 3.13, suggestedClass: '250', freightClass: '250' },
    ]);
    expect(badFields(await post('/api/admin/quotation/getClass', { lines: [] }, 'customer'))).toEqual([
      'lines',
    ]);
  });

  it("prices insurance from the product's terms, with its minimum premium", async () => {
    const id = (
      await post('/api/admin/product/list', { page: 1, limit: 10, keyword: 'LTL-STD' }, 'admin')
    ).json().data.list[0].id;
    const big = await post(
      '/api/admin/quotation/insuredAmount',
      { productId: id, insuredValue: '20000.00' },
      'customer',
    );
    expect(big.json().data).toEqual({ insuredValue: '20000.00', premium: '60.00', deductible: '100.00' });
    const small = await post(
      '/api/admin/quotation/insuredAmount',
      { productId: id, insuredValue: '100.00' },
      'customer',
    );
    expect(small.json().data.premium).toBe('25.00');
  });
});
