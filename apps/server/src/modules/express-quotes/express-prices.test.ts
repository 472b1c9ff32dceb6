import { beforeAll, describe, expect, it } from 'vitest';
import { expressTenant, parcelShipment, streamedExpressRates } from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';
import { badFields, type Who } from '../../../test/helpers.ts';
import { createOrganisation } from '../customers/service.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [
    ['admin', 'editor', 'branch', 'agent', 'customer', 'direct'],
    ['admin', 'customer'],
  ],
  language: 'en-US',
});
const orgs: Record<string, number> = {};
const channels: Record<string, number> = {};

beforeAll(async () => {
  for (const who of ['branch', 'agent', 'customer', 'direct'] as const) orgs[who] = await f.orgOf(who);
  await expressTenant(f.db, f.t.tenant.id, orgs);
  // A second agent under the same branch, with a customer of its own: the agent's siblings.
  const sibling = await createOrganisation(f.db, f.t.tenant.id, {
    type: 'agent',
    name: 'Sibling Agency',
    parentId: orgs.branch,
  });
  const siblingCustomer = await createOrganisation(f.db, f.t.tenant.id, {
    type: 'customer',
    name: 'Sibling Customer',
    parentId: sibling.id,
  });
  orgs.sibling = sibling.id;
  orgs.siblingCustomer = siblingCustomer.id;
  const options = (await f.as('customer').get('/api/express/quotation/options')).json().data;
  for (const c of options.channels as { code: string; channelId: number }[]) channels[c.code] = c.channelId;
});

type SampleLevel = { type: string; name: string; total: string; source: string; markupPercent: string };
type SampleResult = { code: string; ok: boolean; reason: string | null; zone: string; levels: SampleLevel[] };

async function sample(who: Who, body: Record<string, unknown>) {
  const data = await f.as(who).ok('/api/express/price/sample', body);
  return Object.fromEntries((data.results as SampleResult[]).map((r) => [r.code, r]));
}
const totals = (r: SampleResult | undefined) => r?.levels.map((l) => [l.type, l.total]);

const saveLevel = (
  who: Who,
  organisationId: number,
  productKey: string,
  markupPercent: string,
  markupFixed = '0',
) =>
  f.as(who).post('/api/admin/customer/priceLevelSave', {
    organisationId,
    line: 'express',
    productKey,
    markupPercent,
    markupFixed,
  });
const deleteLevel = (who: Who, organisationId: number, productKey: string) =>
  f.as(who).post('/api/admin/customer/priceLevelDelete', { organisationId, line: 'express', productKey });

async function quotedTotals(who: Who) {
  const { id } = await f.as(who).ok('/api/express/quotation/getQuotas', parcelShipment());
  const done = (await streamedExpressRates(f.as(who), id)).at(-1);
  return {
    id: id as number,
    results: done.results as { code: string; ok: boolean; channelId: number; levels: { total: string }[] }[],
  };
}

describe('express markups per channel', () => {
  it('prices a 5 lb parcel in zone 5 on each channel, from the operator’s cost down the tree', async () => {
    const results = await sample('admin', { organisationId: orgs.customer });
    expect(Object.keys(results)).toEqual(['USG-STD', 'USG-ECO', 'INTL-EXP']);
    const std = results['USG-STD'];
    // By hand: Los Angeles to Dallas is zone 5; 10×8×6/139 = 3.45 lb, 5 lb billed. Bracket 5 of zone 5:
    // 10.95 + 4 × 1.40 = 16.55, fuel 12.5 % = 2.07 (2.06875 half up): cost 18.62.
    // Branch +5 %: 17.38 + 2.17 = 19.55; agent +8 %: 18.77 + 2.34 = 21.11; customer +10 %: 20.65 + 2.57 = 23.22.
    expect(std).toMatchObject({ ok: true, zone: '5', billableWeight: 5 });
    expect(totals(std)).toEqual([
      ['platform', '18.62'],
      ['branch', '19.55'],
      ['agent', '21.11'],
      ['customer', '23.22'],
    ]);
    expect(std?.levels.map((l) => [l.name, l.markupPercent, l.source])).toEqual([
      ['', '0.00', 'none'],
      ['East Coast Branch', '5.00', 'default'],
      ['Harbor Freight Agency', '8.00', 'default'],
      ['Acme Imports', '10.00', 'default'],
    ]);
    // Economy: 8.40 + 4 × 1.15 = 13.00, fuel 9 % = 1.17: cost 14.17.
    expect(results['USG-ECO']?.levels[0]).toMatchObject({ type: 'platform', total: '14.17' });
    // The international channel does not go to Dallas, and says so with no prices.
    expect(results['INTL-EXP']).toMatchObject({ ok: false, reason: 'wrong_scope', levels: [] });
  });

  it('prices markups as edited without saving them, a channel’s own markup over the default', async () => {
    const body = { organisationId: orgs.customer, weight: 4 };
    // The 4 lb parcel of the quote tests: the agent's price 19.32 (17.18 + 2.14).
    expect(totals((await sample('admin', body))['USG-STD'])?.at(-1)).toEqual(['customer', '21.25']);
    const edited = await sample('editor', {
      ...body,
      levels: [{ productKey: '', markupPercent: '20', markupFixed: '1.00' }],
    });
    // 17.18 + 20 % = 20.62 (20.616), plus 1.00 = 21.62; fuel 2.14 + 20 % = 2.57: 24.19.
    expect(totals(edited['USG-STD'])?.at(-1)).toEqual(['customer', '24.19']);
    const perChannel = await sample('admin', {
      ...body,
      levels: [
        { productKey: '', markupPercent: '10', markupFixed: '0' },
        { productKey: 'USG-STD', markupPercent: '0', markupFixed: '0' },
      ],
    });
    expect(perChannel['USG-STD']?.levels.at(-1)).toMatchObject({ total: '19.32', source: 'channel' });
    // Economy keeps the default, as saved.
    expect(perChannel['USG-ECO']?.levels.at(-1)).toMatchObject({ source: 'default', markupPercent: '10.00' });
    expect(perChannel['USG-ECO']?.levels.at(-1)?.total).toBe(
      totals((await sample('admin', body))['USG-ECO'])?.at(-1)?.[1],
    );
    // Nothing was saved: the quote still prices 21.25.
    const { results } = await quotedTotals('customer');
    expect(results.find((r) => r.code === 'USG-STD')?.levels.at(-1)?.total).toBe('21.25');
  });

  it('saves and removes a channel’s own markup, and the quote follows', async () => {
    expect((await saveLevel('admin', orgs.customer as number, 'USG-STD', '0')).json().code).toBe(200);
    const levels = await f.as('admin').ok('/api/admin/customer/priceLevels', { id: orgs.customer });
    expect(levels.list.filter((l: { line: string }) => l.line === 'express')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ productKey: '', markupPercent: '10.00' }),
        expect.objectContaining({ productKey: 'USG-STD', markupPercent: '0.00', markupFixed: '0.00' }),
      ]),
    );
    let quoted = await quotedTotals('customer');
    expect(quoted.results.find((r) => r.code === 'USG-STD')?.levels.at(-1)?.total).toBe('19.32');
    expect(quoted.results.find((r) => r.code === 'USG-ECO')?.levels.at(-1)?.total).not.toBe('11.85');

    expect((await deleteLevel('admin', orgs.customer as number, 'USG-STD')).json().code).toBe(200);
    quoted = await quotedTotals('customer');
    expect(quoted.results.find((r) => r.code === 'USG-STD')?.levels.at(-1)?.total).toBe('21.25');
    // Removing one that is not there changes nothing and is no error.
    expect((await deleteLevel('admin', orgs.customer as number, 'USG-STD')).json().code).toBe(200);
  });

  it('lets an agent price and set only those below it: never itself, a sibling or a sibling’s customer', async () => {
    // The agent sees its own price and its customer's, never the operator's cost or the branch's price.
    const mine = await sample('agent', { organisationId: orgs.customer, weight: 4 });
    expect(totals(mine['USG-STD'])).toEqual([
      ['agent', '19.32'],
      ['customer', '21.25'],
    ]);
    expect((await saveLevel('agent', orgs.customer as number, 'USG-ECO', '12.5')).json().code).toBe(200);
    expect((await deleteLevel('agent', orgs.customer as number, 'USG-ECO')).json().code).toBe(200);

    for (const other of [orgs.sibling, orgs.siblingCustomer, orgs.direct] as number[]) {
      await f.as('agent').fail('/api/express/price/sample', { organisationId: other }, 404);
      await f.as('agent').fail('/api/admin/customer/priceLevels', { id: other }, 404);
      expect((await saveLevel('agent', other, 'USG-STD', '1')).json().code).toBe(404);
      expect((await deleteLevel('agent', other, '')).json().code).toBe(404);
    }
    // Nobody sets or prices its own markup: its parent does.
    await f.as('agent').fail('/api/express/price/sample', { organisationId: orgs.agent }, 401);
    expect((await saveLevel('agent', orgs.agent as number, '', '0')).json().code).toBe(401);
    expect((await deleteLevel('agent', orgs.agent as number, '')).json().code).toBe(401);
    // The branch prices its agents and their customers, seeing its own price first.
    const branch = await sample('branch', { organisationId: orgs.siblingCustomer, weight: 4 });
    expect(totals(branch['USG-STD'])?.map(([type]) => type)).toEqual(['branch', 'agent', 'customer']);
    // The sibling's customer has no markups: it pays what its agent does, and the branch's price.
    expect(branch['USG-STD']?.levels.map((l) => l.source)).toEqual(['default', 'none', 'none']);
    expect(totals(branch['USG-STD'])?.map(([, total]) => total)).toEqual(['17.89', '17.89', '17.89']);
    // The agent's settings left the sample as it was.
    expect(totals((await sample('agent', { organisationId: orgs.customer, weight: 4 }))['USG-ECO'])).toEqual(
      totals(mine['USG-ECO']),
    );
  });

  it('refuses customers, and shows another tenant nothing', async () => {
    await f.as('customer').fail('/api/express/price/sample', { organisationId: orgs.customer }, 401);
    expect((await deleteLevel('customer', orgs.customer as number, '')).json().code).toBe(401);
    const other = f.as('admin', f.tenant(1));
    await other.fail('/api/express/price/sample', { organisationId: orgs.customer }, 404);
    await other.fail('/api/admin/customer/priceLevels', { id: orgs.customer }, 404);
    const refused = await other.post('/api/admin/customer/priceLevelDelete', {
      organisationId: orgs.customer,
      line: 'express',
      productKey: '',
    });
    expect(refused.json().code).toBe(404);
    // The markup it tried to remove is still there.
    expect(
      totals((await sample('admin', { organisationId: orgs.customer, weight: 4 }))['USG-STD'])?.at(-1),
    ).toEqual(['customer', '21.25']);
  });

  it('names the field of a bad sample', async () => {
    const res = await f.as('admin').post('/api/express/price/sample', {
      organisationId: orgs.customer,
      destinationZip: 'ABC',
      weight: -1,
      levels: [{ productKey: '', markupPercent: 'lots', markupFixed: '0' }],
    });
    expect(res.statusCode).toBe(400);
    expect(badFields(res).sort()).toEqual(['destinationZip', 'levels.0.markupPercent', 'weight']);
  });
});

describe('channels a user leaves out of quotes', () => {
  it('leaves the hidden channels out of that user’s quotes only, and refuses selecting one', async () => {
    const saved = await f.as('customer').ok('/api/express/customer/setQuotationConfig', {
      defaultLine: 'express',
      hiddenChannelIds: [channels['USG-ECO'], channels['USG-ECO']],
    });
    expect(saved.hiddenChannelIds).toEqual([channels['USG-ECO']]);
    const config = await f.as('customer').ok('/api/admin/admin/quotationConfig', {});
    expect(config.quotation).toMatchObject({
      defaultLine: 'express',
      hiddenChannelIds: [channels['USG-ECO']],
    });

    const { id, results } = await quotedTotals('customer');
    expect(results.map((r) => r.code)).toEqual(['USG-STD', 'INTL-EXP']);
    const refused = await f.as('customer').post('/api/express/quotation/select', {
      id,
      channelId: channels['USG-ECO'],
    });
    expect(refused.statusCode).toBe(400);
    expect(badFields(refused)).toEqual(['channelId']);
    // The form still offers every channel, so the setting can be changed back.
    const options = (await f.as('customer').get('/api/express/quotation/options')).json().data;
    expect(options.channels.map((c: { code: string }) => c.code)).toContain('USG-ECO');
    // Another user's quotes are their own.
    expect((await quotedTotals('direct')).results.map((r) => r.code)).toEqual([
      'USG-STD',
      'USG-ECO',
      'INTL-EXP',
    ]);

    await f.as('customer').ok('/api/express/customer/setQuotationConfig', { defaultLine: 'express' });
    expect((await quotedTotals('customer')).results.map((r) => r.code)).toEqual([
      'USG-STD',
      'USG-ECO',
      'INTL-EXP',
    ]);
  });

  it('refuses ids that are not ids, by field', async () => {
    const res = await f.as('customer').post('/api/express/customer/setQuotationConfig', {
      hiddenChannelIds: [0, 'x'],
    });
    expect(res.statusCode).toBe(400);
    expect(badFields(res).every((field) => field.startsWith('hiddenChannelIds'))).toBe(true);
  });
});
