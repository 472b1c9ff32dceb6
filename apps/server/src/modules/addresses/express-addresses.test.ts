import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [['admin', 'customer', 'agent'], ['customer']],
  language: 'en-US',
});

const address = (extra: Record<string, unknown> = {}) => ({
  name: 'Acme Warehouse',
  address1: '100 Main St',
  address2: 'Dock 4',
  zipcode: '92551',
  city: 'Moreno Valley',
  state: 'CA',
  contact: 'Jane Doe',
  phone: '9095551234',
  addressType: 'warehouse',
  ...extra,
});

describe('express address calls', () => {
  it('lists the caller’s book as ship-from options with the SPEC’s fields, and only businesses and warehouses as returns', async () => {
    const customer = f.as('customer');
    const { id: warehouse } = await customer.ok(
      '/api/admin/address/save',
      address({ isDefaultPickup: true }),
    );
    await customer.ok(
      '/api/admin/address/save',
      address({
        name: 'Home',
        address1: '5 Elm St',
        address2: '',
        zipcode: '10001',
        city: 'New York',
        state: 'NY',
        addressType: 'residential',
      }),
    );
    const options = (await customer.get('/api/express/address/listOptions')).json();
    expect(options.code).toBe(200);
    expect(options.data.list[0]).toMatchObject({
      id: warehouse,
      address_code: `A${warehouse}`,
      name: 'Acme Warehouse',
      detail: '100 Main St, Dock 4',
      country: 'US',
      province_code: 'CA',
      city: 'Moreno Valley',
      zipcode: '92551',
      isDefault: true,
      residential: false,
    });
    expect(options.data.list.map((o: { name: string }) => o.name).sort()).toEqual(['Acme Warehouse', 'Home']);
    const returns = (await customer.get('/api/express/address/returns')).json().data.list;
    expect(returns.map((o: { name: string }) => o.name)).toEqual(['Acme Warehouse']);

    // A parent names the customer whose book it reads; staff must name one; another tenant sees none of it.
    const customerOrg = await f.orgOf('customer');
    const agentView = (
      await f.as('agent').get(`/api/express/address/listOptions?organisationId=${customerOrg}`)
    ).json();
    expect(agentView.data.list).toHaveLength(2);
    expect((await f.as('admin').get('/api/express/address/listOptions')).json().data.list).toEqual([]);
    const stranger = (
      await f
        .as('customer', f.tenant(1))
        .get(`/api/express/address/listOptions?organisationId=${customerOrg}`)
    ).json();
    expect(stranger).toMatchObject({ code: 400, data: { fields: [{ field: 'organisationId' }] } });
  });

  it('finds FBA warehouses by keyword', async () => {
    const res = (await f.as('customer').get('/api/express/address/getFba?keyword=ONT8')).json();
    expect(res.data).toEqual([expect.objectContaining({ code: 'ONT8', zipcode: '92551', state: 'CA' })]);
  });

  it('checks that a US ZIP, state and city agree, naming the field that does not', async () => {
    const customer = f.as('customer');
    const check = (body: Record<string, unknown>) => customer.post('/api/express/address/check', body);
    expect((await check({ zipcode: '92551', city: 'moreno valley', state: 'ca' })).json()).toMatchObject({
      code: 200,
      data: { zipcode: '92551', city: 'Moreno Valley', state: 'CA', country: 'US', confirmed: true },
    });
    const state = (await check({ zipcode: '92551', city: 'Moreno Valley', state: 'NV' })).json();
    expect(state).toMatchObject({ code: 400, data: { fields: [{ field: 'state' }] } });
    expect(state.msg).toContain('CA');
    const city = (await check({ zipcode: '10001', city: 'Boston', state: 'NY' })).json();
    expect(city).toMatchObject({ code: 400, data: { fields: [{ field: 'city' }] } });
    expect(city.msg).toContain('New York');
    expect((await check({ zipcode: '00000', city: 'Nowhere', state: 'CA' })).json()).toMatchObject({
      code: 400,
      data: { fields: [{ field: 'zipcode' }] },
    });
    // In Chinese too.
    const zh = (
      await customer
        .in('zh-CN')
        .post('/api/express/address/check', { zipcode: '92551', city: 'Moreno Valley', state: 'NV' })
    ).json();
    expect(zh.msg).toContain('邮编');
    // Abroad the address is taken as written, not confirmed.
    expect(
      (await check({ zipcode: 'M5V 2T6', city: 'Toronto', state: 'ON', country: 'CA' })).json().data,
    ).toMatchObject({
      confirmed: false,
      country: 'CA',
    });
    expect(
      (await f.anonymous().post('/api/express/address/check', { zipcode: '92551', city: 'x' })).json().code,
    ).toBe(300);
  });
});
