import { shipmentBody } from '@freight/contracts/truck-shipment';
import { beforeAll, describe, expect, it } from 'vitest';
import { isoDay, useTestApp } from '../../../test/fixture.ts';
import { tenantTablesProvider, truckCarriers } from '../truck-products/carriers.ts';
import { enabledProducts, findProduct, seedDemoTariffs } from '../truck-products/service.ts';
import { BUILTIN_PROVIDER, carrierRegistry, UnknownCarrierError } from './provider.ts';

const f = useTestApp();
beforeAll(async () => {
  await seedDemoTariffs(f.db, f.t.tenant.id);
});

const shipment = shipmentBody.parse({
  mode: 'LTL' as const,
  pickup: {
    name: 'Dock',
    address1: '1 Main St',
    zipcode: '90001',
    city: 'Los Angeles',
    state: 'CA',
    contact: 'Pat',
    phone: '2135550100',
  },
  delivery: {
    name: 'DC',
    address1: '2 Elm St',
    zipcode: '75201',
    city: 'Dallas',
    state: 'TX',
    contact: 'Sam',
    phone: '2145550100',
  },
  quoteDate: isoDay(),
  lines: [
    {
      name: 'Parts',
      quantity: 10,
      palletCount: 1,
      length: 48,
      width: 40,
      height: 48,
      totalWeight: 500,
      freightClass: '70',
    },
  ],
  accessorials: [],
});

describe('carrier providers', () => {
  it('answers the built-in provider for a truck product, which records it by default', async () => {
    const db = f.db;
    const [seeded] = await enabledProducts(db, f.t.tenant.id, 'FTL');
    // Written with no provider named, as every product before providers existed.
    const product = await findProduct(db, f.t.tenant.id, seeded?.id as number);
    expect(product?.provider).toBe(BUILTIN_PROVIDER);
    expect(truckCarriers.forProduct(product as { provider: string })).toBe(tenantTablesProvider);
    expect(truckCarriers.get('builtin')).toBe(tenantTablesProvider);
    expect(truckCarriers.names()).toEqual(['builtin']);
  });

  it('refuses a provider name the line does not have', () => {
    expect(() => truckCarriers.get('acme-freight')).toThrow(UnknownCarrierError);
    expect(() => truckCarriers.forProduct({ provider: 'acme-freight' })).toThrow(
      'no truck carrier provider named "acme-freight"',
    );
    expect(truckCarriers.find('acme-freight')).toBeNull();
    // A line without its built-in provider, or with two of one name, does not start.
    expect(() => carrierRegistry('express', [])).toThrow('no built-in carrier provider');
    expect(() => carrierRegistry('truck', [tenantTablesProvider, tenantTablesProvider])).toThrow(
      'two truck carrier providers named "builtin"',
    );
  });

  it('prices at cost from the tenant’s lanes, and books, tracks and cancels with nobody outside', async () => {
    const db = f.db;
    const products = await enabledProducts(db, f.t.tenant.id, 'LTL');
    const rater = await tenantTablesProvider.rater(db, f.t.tenant.id, products);
    const std = products.find((p) => p.code === 'LTL-STD');
    const eco = products.find((p) => p.code === 'LTL-ECO');
    const rated = await rater.rate(std as never, shipment);
    expect(rated.ok).toBe(true);
    if (rated.ok) expect(rated.cost.total).toBe(rated.cost.linehaul + rated.cost.fuel);
    // The economy product's lanes stay on the West Coast: Dallas has none.
    expect(await rater.rate(eco as never, shipment)).toEqual({ ok: false, reason: 'no_lane' });
    const ref = { tenantId: f.t.tenant.id, orderNo: 'TK1', productId: std?.id ?? null, reference: null };
    expect(await tenantTablesProvider.book(db, { ...ref, shipment })).toEqual({ reference: null });
    expect(await tenantTablesProvider.track(db, ref)).toEqual([]);
    await expect(tenantTablesProvider.cancel(db, ref)).resolves.toBeUndefined();
  });
});
