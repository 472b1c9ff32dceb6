import { describe, expect, it } from 'vitest';
import {
  parcelShipment,
  selectedQuote,
  streamedExpressRates,
  useExpressLine,
} from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields, type Who } from '../../../test/helpers.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [
    ['admin', 'branch', 'agent', 'customer', 'direct'],
    ['admin', 'customer'],
  ],
  language: 'en-US',
});
const { orgs } = useExpressLine(f);

async function quoteAndRate(who: Who, body: Record<string, unknown> = parcelShipment()) {
  const { id, quoteNo } = await f.as(who).ok('/api/express/quotation/getQuotas', body);
  expect(quoteNo).toMatch(/^EQ/);
  const lines = await streamedExpressRates(f.as(who), id);
  return { id, lines, done: lines.at(-1) };
}

describe('express quotes', () => {
  it('streams every open channel, priced to the cent at each level the caller may see', async () => {
    const { lines, done } = await quoteAndRate('customer');
    // Each of the three channels as it is priced, then the end.
    expect(lines.map((l) => l.type)).toEqual(['result', 'result', 'result', 'done']);
    expect(done.results.map((r: { code: string }) => r.code)).toEqual(['USG-STD', 'USG-ECO', 'INTL-EXP']);
    const std = done.results[0];
    // By hand: zone 5 (Los Angeles 900 to Dallas 752); 10×8×6/139 = 3.45 lb dimensional, 4 lb actual,
    // 4 lb billed: bracket 4 of zone 5 is 10.95 + 3 × 1.40 = 15.15; fuel 12.5 % is 1.89; cost 17.04.
    // Branch +5 %: 15.91 + 1.98; agent +8 %: 17.18 + 2.14; customer +10 %: 18.90 + 2.35 = 21.25.
    expect(std).toMatchObject({ ok: true, breakdown: { zone: '5', billableWeight: 4 } });
    expect(std.levels).toEqual([
      {
        organisationId: orgs.customer,
        type: 'customer',
        freight: '18.90',
        surcharges: [],
        fuel: '2.35',
        total: '21.25',
      },
    ]);
    // A customer sees the weights but not the operator's cost per parcel.
    expect(std.breakdown.parcels[0]).toEqual({
      actualWeight: 4,
      dimWeight: 3.45,
      billableWeight: 4,
      quantity: 1,
    });
    // Economy: divisor 166 gives 2.89 lb, 4 lb billed, zone 5 bracket 4: 8.40 + 3 × 1.15 = 11.85.
    const eco = done.results[1];
    expect(eco.ok).toBe(true);
    // The international channel does not go to Dallas, and says so.
    expect(done.results[2]).toMatchObject({ ok: false, reason: 'wrong_scope' });
    expect(eco.cheapest).toBe(true);
    expect(std.fastest).toBe(true);
    expect(std.cheapest).toBe(false);
  });

  it('shows staff every level from the operator’s cost, and an agent its own price and below', async () => {
    const { id } = await quoteAndRate('customer');
    const staff = await f.as('admin').ok('/api/express/quotation/info', { id });
    const std = staff.results[0];
    expect(std.levels.map((l: { type: string; total: string }) => [l.type, l.total])).toEqual([
      ['platform', '17.04'],
      ['branch', '17.89'],
      ['agent', '19.32'],
      ['customer', '21.25'],
    ]);
    expect(std.breakdown.parcels[0]).toMatchObject({ freight: '15.15', minimumApplied: false });
    const agent = await f.as('agent').ok('/api/express/quotation/info', { id });
    expect(agent.results[0].levels.map((l: { type: string }) => l.type)).toEqual(['agent', 'customer']);
    expect(agent.results[0].breakdown.parcels[0].freight).toBeUndefined();
  });

  it('prices surcharges: residential, delivery area, additional handling, signature and declared value', async () => {
    const body = parcelShipment({
      recipient: {
        ...parcelShipment().recipient,
        zipcode: '59001',
        state: 'MT',
        city: 'Absarokee',
        residential: true,
      },
      parcels: [{ quantity: 2, length: 50, width: 12, height: 10, weight: 20, declaredValue: '250.00' }],
      signature: true,
    });
    const { id } = await quoteAndRate('customer', body);
    const staff = await f.as('admin').ok('/api/express/quotation/info', { id });
    const std = staff.results[0];
    // Montana 590 is zone 6 from Los Angeles. 50×12×10/139 = 43.17 lb dimensional, billed 44 lb: past the
    // 30 lb table, 11.60 + 29 × 1.65 = 59.45 for 30 lb, plus 14 × 1.65 = 23.10: 82.55 a parcel.
    expect(std.breakdown).toMatchObject({ zone: '6', billableWeight: 88 });
    expect(std.breakdown.parcels[0]).toMatchObject({ billableWeight: 44, freight: '82.55' });
    // A side over 48 in: additional handling 18.00; residential 4.50; DAS 3.95; signature 6.00; declared
    // 250.00 is 150.00 over the free 100.00: 2 hundreds started at 1.00, under the 3.00 minimum: 3.00.
    expect(std.breakdown.parcels[0].surcharges).toEqual([
      { code: 'residential', fee: '4.50' },
      { code: 'delivery_area', fee: '3.95', note: 'DAS' },
      { code: 'additional_handling', fee: '18.00' },
      { code: 'signature', fee: '6.00' },
      { code: 'declared_value', fee: '3.00' },
    ]);
    const cost = std.levels[0];
    // Two parcels: freight 165.10; surcharges doubled; fuel 12.5 % of 165.10 + 64.90 (not declared
    // value) = 230.00 -> 28.75; total 165.10 + 70.90 + 28.75 = 264.75.
    expect(cost).toMatchObject({ freight: '165.10', fuel: '28.75', total: '264.75' });
  });

  it('refuses a channel that cannot take the parcel, naming why, and prices abroad by kilograms', async () => {
    const heavy = parcelShipment({ parcels: [{ length: 20, width: 20, height: 20, weight: 90 }] });
    const { done } = await quoteAndRate('customer', heavy);
    // 90 lb is over the economy channel's 70 lb; the standard one takes up to 150 lb.
    expect(done.results[0].ok).toBe(true);
    expect(done.results[1]).toMatchObject({ ok: false, reason: 'overweight' });

    const toLondon = parcelShipment({
      recipient: {
        ...parcelShipment().recipient,
        city: 'London',
        state: '',
        zipcode: 'SW1A 1AA',
        country: 'GB',
      },
      parcels: [{ length: 10, width: 10, height: 10, weight: 3 }],
      customs: {
        contentsType: 'merchandise',
        items: [
          {
            description: 'Cotton T-shirt',
            hsCode: '6109.10',
            originCountry: 'US',
            quantity: 3,
            unitValue: '12.50',
            weight: 1,
          },
        ],
      },
    });
    const abroad = await quoteAndRate('customer', toLondon);
    const intl = abroad.done.results[2];
    // 3 lb = 1.36 kg, 25.4 cm sides give 3.28 kg dimensional (÷ 5000): 3.5 kg billed in zone B.
    expect(intl).toMatchObject({
      ok: true,
      breakdown: { zone: 'B', unitSystem: 'kg_cm', billableWeight: 3.5 },
    });
    expect(abroad.done.results[0]).toMatchObject({ ok: false, reason: 'wrong_scope' });
  });

  it('names bad fields of a shipment in the caller’s language and saves nothing', async () => {
    const bad = parcelShipment({ parcels: [{ length: 0, width: 8, height: 6, weight: 4 }] });
    const res = await f.as('customer').post('/api/express/quotation/getQuotas', {
      ...bad,
      recipient: { ...parcelShipment().recipient, zipcode: '7520' },
    });
    expect(res.json().code).toBe(400);
    expect(badFields(res)).toEqual(expect.arrayContaining(['parcels.0.length', 'recipient.zipcode']));
    const zh = await f
      .as('customer')
      .post('/api/express/quotation/getQuotas', { ...parcelShipment(), parcels: [] }, 'zh-CN');
    expect(zh.json().code).toBe(400);
    expect(zh.json().msg).toMatch(/[\u4e00-\u9fff]/);
  });

  it('selects only a priced, open channel; a quote another organisation made is not there', async () => {
    const { id, done } = await quoteAndRate('customer');
    const intl = done.results[2];
    const refused = await f
      .as('customer')
      .post('/api/express/quotation/select', { id, channelId: intl.channelId });
    expect(refused.json().code).toBe(400);
    expect(badFields(refused)).toEqual(['channelId']);
    const selected = await f
      .as('customer')
      .ok('/api/express/quotation/select', { id, channelId: done.results[0].channelId });
    expect(selected).toMatchObject({ status: 'selected', total: '21.25' });
    // The direct customer is not above the customer: the quote does not exist for it.
    await f.as('direct').fail('/api/express/quotation/info', { id }, 404);
    await f
      .as('direct')
      .fail('/api/express/quotation/select', { id, channelId: done.results[0].channelId }, 404);
    // Nor for a customer of another tenant.
    await f.as('customer', f.tenant(1)).fail('/api/express/quotation/info', { id }, 404);
    const stream = await f.as('customer', f.tenant(1)).post('/api/express/quotation/rates', { id });
    expect(stream.json()).toMatchObject({ code: 404 });
  });

  it('lists the quotes the caller may see, newest first, with the actions the server allows', async () => {
    const id = await selectedQuote(f.as('customer'));
    const mine = await f.as('customer').ok('/api/express/quotation/list', { page: 1, limit: 10 });
    expect(mine.list[0]).toMatchObject({ id, status: 'selected', actions: ['select', 'book', 'requote'] });
    const agent = await f
      .as('agent')
      .ok('/api/express/quotation/list', { page: 1, limit: 10, status: 'selected' });
    expect(agent.list.map((q: { id: number }) => q.id)).toContain(id);
    const direct = await f.as('direct').ok('/api/express/quotation/list', { page: 1, limit: 10 });
    expect(direct.list.map((q: { id: number }) => q.id)).not.toContain(id);
    const options = (await f.as('customer').get('/api/express/quotation/options')).json().data;
    expect(options.channels.map((c: { code: string }) => c.code)).toEqual(['USG-STD', 'USG-ECO', 'INTL-EXP']);
  });
});
