import { expressPriceLevels } from '@freight/contracts/express-rating';
import { formatMoney } from '@freight/contracts/money';
import { beforeAll, describe, expect, it } from 'vitest';
import { CARRIER_DOCUMENTS, upsTokenAnswer, useCarrierMock } from '../../../test/carrier-mock.ts';
import {
  expressChannelBody,
  parcelShipment,
  streamedExpressRates,
  useExpressLine,
} from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';

/**
 * Express channels a carrier's API prices (UPS here, through a validating mock of its own Rating
 * document): the carrier's cost, marked up down the tree as table prices are; a failing or slow carrier
 * on its own line, never holding up the table channels.
 */
const f = useTestApp({ tenants: 2, signIn: [['admin', 'customer'], ['admin']], language: 'en-US' });
const { orgs } = useExpressLine(f);

const ups = useCarrierMock({ documents: CARRIER_DOCUMENTS.ups });
let accountId = 0;
let channelId = 0;

const usd = (value: string) => ({ CurrencyCode: 'USD', MonetaryValue: value });
const token = upsTokenAnswer('client-1', 'tok');
/** UPS Ground at the account's negotiated price: base 13.81, fuel 2.36, residential 2.48. */
const groundAnswer = {
  body: {
    RateResponse: {
      Response: { ResponseStatus: { Code: '1', Description: 'Success' } },
      RatedShipment: [
        {
          Service: { Code: '03' },
          BillingWeight: { UnitOfMeasurement: { Code: 'LBS', Description: 'Pounds' }, Weight: '4.0' },
          TransportationCharges: usd('24.87'),
          ItemizedCharges: [
            { Code: '375', CurrencyCode: 'USD', MonetaryValue: '3.15' },
            { Code: '270', Description: 'Residential Surcharge', CurrencyCode: 'USD', MonetaryValue: '3.30' },
          ],
          ServiceOptionsCharges: usd('0.00'),
          TotalCharges: usd('24.87'),
          NegotiatedRateCharges: {
            BaseServiceCharge: [usd('13.81')],
            ItemizedCharges: [
              { Code: '375', CurrencyCode: 'USD', MonetaryValue: '2.36' },
              {
                Code: '270',
                Description: 'Residential Surcharge',
                CurrencyCode: 'USD',
                MonetaryValue: '2.48',
              },
            ],
            TotalCharge: usd('18.65'),
          },
          RatedPackage: [{ Weight: '4.0' }],
        },
      ],
    },
  },
};

beforeAll(async () => {
  const admin = f.as('admin');
  const account = await admin.ok('/api/admin/carrierAccount/create', {
    kind: 'ups',
    label: 'UPS negotiated',
    environment: 'custom',
    baseUrl: ups.url,
    timeoutMs: 1_500,
    credentials: { clientId: 'client-1', clientSecret: 'secret-1', accountNumber: 'R5T7Y9' },
  });
  accountId = account.id;
  const products = await admin.ok('/api/admin/expressProduct/list', {});
  const productId = products.list[0].id;
  const saved = await admin.ok(
    '/api/admin/expressChannel/save',
    expressChannelBody(productId, {
      code: 'UPS-GND',
      nameEn: 'UPS Ground',
      carrier: 'UPS',
      service: 'Ground',
      carrierAccountId: accountId,
      carrierService: '03',
    }),
  );
  channelId = saved.id;
});

async function rates(who: 'customer' | 'admin') {
  // Staff quote for a customer.
  const body = who === 'admin' ? { ...parcelShipment(), organisationId: orgs.customer } : parcelShipment();
  const { id } = await f.as(who).ok('/api/express/quotation/getQuotas', body);
  return { id, lines: await streamedExpressRates(f.as(who), id) };
}

describe('express channels priced by UPS', () => {
  it('takes the UPS account rate as the cost and marks it up down the tree like a table price', async () => {
    ups.respond('CreateToken', token);
    ups.respond('Rate', groundAnswer);
    const channel = await f.as('admin').ok('/api/admin/expressChannel/info', { id: channelId });
    expect(channel).toMatchObject({ provider: 'ups', carrierAccountId: accountId, carrierService: '03' });

    const staff = (await rates('admin')).lines
      .at(-1)
      .results.find((r: { code: string }) => r.code === 'UPS-GND');
    expect(staff).toMatchObject({ ok: true, provider: 'ups', breakdown: { zone: '', billableWeight: 4 } });
    // The operator's cost is exactly UPS's negotiated charges, each named.
    expect(staff.levels[0]).toEqual({
      organisationId: null,
      type: 'platform',
      freight: '13.81',
      surcharges: [{ code: 'carrier', name: 'Residential Surcharge', fee: '2.48' }],
      fuel: '2.36',
      total: '18.65',
    });
    const shop = ups.requests.find((r) => r.operationId === 'Rate');
    expect(JSON.stringify(shop?.body)).toContain('R5T7Y9');

    const { lines } = await rates('customer');
    const mine = lines.at(-1).results.find((r: { code: string }) => r.code === 'UPS-GND');
    // The customer's price: the same chain of markups over the carrier's cost as over a table's.
    const chain = staff.levels
      .slice(1)
      .map((l: { organisationId: number; type: 'branch' | 'agent' | 'customer' }, i: number) => ({
        organisationId: l.organisationId,
        type: l.type,
        markup: { percentBp: [500, 800, 1_000][i] as number, fixedCents: 0 },
      }));
    const expected = expressPriceLevels(
      {
        freight: 1381,
        surcharges: [{ code: 'carrier', fee: 248, name: 'Residential Surcharge' }],
        fuel: 236,
      },
      chain,
    ).at(-1);
    expect(mine.levels).toHaveLength(1);
    expect(mine.levels[0]).toMatchObject({
      organisationId: orgs.customer,
      total: formatMoney(BigInt(expected?.total ?? 0)),
    });
    expect(staff.levels.at(-1).total).toBe(mine.levels[0].total);
    // A customer never sees the operator's cost parts.
    expect(mine.breakdown.parcels[0]).not.toHaveProperty('freight');
  });

  it('puts a failing UPS on its own line, with its reason, while the table channels are priced', async () => {
    ups.respond('CreateToken', token);
    ups.respond('Rate', {
      status: 500,
      body: { response: { errors: [{ code: '9999', message: 'Internal' }] } },
    });
    const done = (await rates('customer')).lines.at(-1);
    const byCode = Object.fromEntries(done.results.map((r: { code: string }) => [r.code, r]));
    expect(byCode['UPS-GND']).toMatchObject({ ok: false, reason: 'carrier_failed', failure: 'unavailable' });
    expect(byCode['USG-STD']).toMatchObject({ ok: true });
    expect(done.results.map((r: { code: string }) => r.code)).toEqual([
      'USG-STD',
      'USG-ECO',
      'INTL-EXP',
      'UPS-GND',
    ]);
  });

  it('does not let a slow UPS hold up the table channels: their lines come first, UPS times out on its own', async () => {
    ups.respond('CreateToken', token);
    // UPS would answer in 8 s; the account allows 1.5 s. The call ends well before the answer would come.
    ups.respond('Rate', { ...groundAnswer, delayMs: 8_000 });
    const started = Date.now();
    const { lines } = await rates('customer');
    expect(Date.now() - started).toBeLessThan(6_000);
    const results = lines.filter((l) => l.type === 'result').map((l) => l.result);
    const codes = results.map((r: { code: string }) => r.code);
    expect(codes.at(-1)).toBe('UPS-GND');
    expect(results.at(-1)).toMatchObject({ ok: false, reason: 'carrier_failed', failure: 'timeout' });
  });

  it('lets a customer pick a channel a carrier prices, marked among the others, and keeps its account from being deleted', async () => {
    ups.respond('CreateToken', token);
    // Cheaper than every table channel: the carrier's line is the one marked cheapest.
    ups.respond('Rate', {
      body: {
        RateResponse: {
          ...groundAnswer.body.RateResponse,
          RatedShipment: [
            {
              ...groundAnswer.body.RateResponse.RatedShipment[0],
              NegotiatedRateCharges: { BaseServiceCharge: [usd('1.00')], TotalCharge: usd('1.00') },
            },
          ],
        },
      },
    });
    const { id, lines } = await rates('customer');
    const results = lines.at(-1).results;
    const cheapest = results.filter((r: { cheapest?: boolean }) => r.cheapest);
    expect(cheapest.map((r: { code: string }) => r.code)).toEqual(['UPS-GND']);
    const selected = await f.as('customer').ok('/api/express/quotation/select', { id, channelId });
    expect(selected).toMatchObject({ status: 'selected', selectedChannelId: channelId });

    const inUse = await f.as('admin').fail('/api/admin/carrierAccount/delete', { id: accountId }, 409);
    expect(inUse.msg).toContain('UPS-GND');
  });

  it('refuses a carrier account of another tenant, or none, for a channel', async () => {
    const products = await f.as('admin').ok('/api/admin/expressProduct/list', {});
    const other = await f.as('admin', f.tenant(1)).ok('/api/admin/carrierAccount/create', {
      kind: 'karrio',
      label: 'Elsewhere',
      environment: 'production',
      credentials: { apiKey: 'k-elsewhere' },
    });
    const body = expressChannelBody(products.list[0].id, {
      code: 'UPS-X',
      carrierAccountId: other.id,
      carrierService: 'x',
    });
    const foreign = await f.as('admin').fail('/api/admin/expressChannel/save', body, 400);
    expect(foreign.msg).toContain('No such carrier account');
    const noService = await f
      .as('admin')
      .fail(
        '/api/admin/expressChannel/save',
        { ...body, carrierAccountId: accountId, carrierService: '' },
        400,
      );
    expect(noService.msg).toContain('Carrier service code');
  });

  it('asks UPS for the day the shipment ships, and for today when that day has passed', async () => {
    ups.respond('CreateToken', token);
    ups.respond('Rate', groundAnswer);
    const pickupAsked = async (shipDate: string) => {
      const before = ups.requests.length;
      const { id } = await f
        .as('customer')
        .ok('/api/express/quotation/getQuotas', parcelShipment({ shipDate }));
      await streamedExpressRates(f.as('customer'), id);
      const shop = ups.requests.slice(before).find((r) => r.operationId === 'Rate');
      const body = shop?.body as {
        RateRequest: { Shipment: { DeliveryTimeInformation: { Pickup: { Date: string } } } };
      };
      return body.RateRequest.Shipment.DeliveryTimeInformation.Pickup.Date;
    };
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    expect(await pickupAsked(day(3))).toBe(day(3).replaceAll('-', ''));
    expect(await pickupAsked('2020-01-06')).toBe(day(0).replaceAll('-', ''));
  });

  it('asks UPS once per quote for all the channels one account serves, each taking its own service', async () => {
    const products = await f.as('admin').ok('/api/admin/expressProduct/list', {});
    const second = await f.as('admin').ok(
      '/api/admin/expressChannel/save',
      expressChannelBody(products.list[0].id, {
        code: 'UPS-2DA',
        nameEn: 'UPS 2nd Day Air',
        carrier: 'UPS',
        service: '2nd Day Air',
        carrierAccountId: accountId,
        carrierService: '02',
      }),
    );
    const ground = groundAnswer.body.RateResponse.RatedShipment[0];
    ups.respond('CreateToken', token);
    ups.respond('Rate', {
      body: {
        RateResponse: {
          ...groundAnswer.body.RateResponse,
          RatedShipment: [
            ground,
            {
              ...ground,
              Service: { Code: '02' },
              NegotiatedRateCharges: { BaseServiceCharge: [usd('31.20')], TotalCharge: usd('31.20') },
            },
          ],
        },
      },
    });
    try {
      const before = ups.requests.filter((r) => r.operationId === 'Rate').length;
      const results = (await rates('admin')).lines.at(-1).results;
      const byCode = Object.fromEntries(results.map((r: { code: string }) => [r.code, r]));
      expect(byCode['UPS-GND'].levels[0].total).toBe('18.65');
      expect(byCode['UPS-2DA'].levels[0].total).toBe('31.20');
      expect(ups.requests.filter((r) => r.operationId === 'Rate').length - before).toBe(1);

      // Another quote asks again: the answer is the quote's, not kept for the next.
      await rates('admin');
      expect(ups.requests.filter((r) => r.operationId === 'Rate').length - before).toBe(2);
    } finally {
      await f.as('admin').ok('/api/admin/expressChannel/delete', { id: second.id });
    }
  });
});
