import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { readGenerations } from '../src/db/cache-generations.ts';
import { parcelShipment, useExpressLine } from './express-fixtures.ts';
import { useTestApp } from './fixture.ts';
import { type SecondCopy, useSecondCopy } from './second-copy.ts';
import { partsShipment } from './truck-fixtures.ts';

/**
 * Copies of the server on one database, each holding the tenant's tariffs, channels and markups in
 * memory (lib/tenant-cache.ts). The others are built from a fresh load of the server's modules, as
 * other processes would be, so they share no cache with the first and hear of changes only through
 * the database. Every change here is written straight to the tables, as no route of any copy would
 * announce it: the database's own triggers do. The first quote each other copy answers after the
 * change has committed must use it, round after round: the one that listens, and the deaf one that
 * never hears the announcement (which arrives a moment after the commit, on another connection) and
 * learns of the change only from the generations its own statements read.
 */
const f = useTestApp({ signIn: ['admin', 'customer'], truck: true, language: 'en-US' });
const express = useExpressLine(f);
const listening = useSecondCopy(f);
const deaf = useSecondCopy(f, { deaf: true });
const ROUNDS = 4;

type Line = { type: string; results?: { code: string; ok: boolean; levels: { total: string }[] }[] };

/**
 * Prices a quote through each other copy and answers what the customer pays with one product or
 * channel, which both must agree on.
 */
async function otherPrice(url: string, id: number, code: string): Promise<string> {
  const [heard, unheard] = [await priceIn(listening, url, id, code), await priceIn(deaf, url, id, code)];
  expect(unheard, 'the copy that hears no announcement').toBe(heard);
  return heard;
}

async function priceIn(other: SecondCopy, url: string, id: number, code: string): Promise<string> {
  const res = await other.app.inject({
    method: 'POST',
    url,
    headers: { host: f.t.host, accesstoken: f.truck.tokens.customer as string, 'accept-language': 'en-US' },
    payload: { id },
  });
  const done = res.body
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line)
    .at(-1);
  const result = done?.results?.find((r) => r.code === code);
  expect(result?.ok, `${code} priced: ${res.body.slice(0, 300)}`).toBe(true);
  return result?.levels.at(-1)?.total as string;
}

/** Changes the data `change` writes several times, each time asking the other copy at once. */
async function everyChangeSeenAtOnce(price: () => Promise<string>, change: (round: number) => Promise<void>) {
  const seen = [await price()];
  // The other copy holds the price now: asking again answers the same.
  expect(await price()).toBe(seen[0]);
  for (let round = 1; round <= ROUNDS; round++) {
    await change(round);
    const now = await price();
    expect(seen, `round ${round}: an old price was served after the change committed`).not.toContain(now);
    seen.push(now);
  }
}

describe('pricing caches across processes', () => {
  it('prices a truck quote with the new tariff as soon as the change commits', async () => {
    const { id } = await f.truck.ok('/api/admin/quotation/save', partsShipment(), 'customer');
    await everyChangeSeenAtOnce(
      () => otherPrice('/api/admin/quotation/rates', id, 'LTL-T'),
      async (round) => {
        await f.db.execute(sql`
          update truck_lanes set ltl = jsonb_set(ltl, '{rates,70}', ${JSON.stringify([5_000 + round * 700])}::jsonb)
           where tenant_id = ${f.t.tenant.id} and ltl is not null`);
      },
    );
  });

  it('prices a truck quote with the new markup as soon as the change commits', async () => {
    // The same quote each round: a shipment priced again is answered from the prices this copy holds
    // only while the tariffs and markups it was priced from are the ones held now.
    const { id } = await f.truck.ok('/api/admin/quotation/save', partsShipment(), 'customer');
    await everyChangeSeenAtOnce(
      () => otherPrice('/api/admin/quotation/rates', id, 'LTL-T'),
      async (round) => {
        await f.db.execute(sql`
          insert into price_levels (tenant_id, organisation_id, line, product_key, markup_percent_bp, markup_fixed_cents)
          values (${f.t.tenant.id}, ${f.truck.orgs.customer as number}, 'truck', '', ${1_000 + round * 300}, 0)
          on conflict (tenant_id, organisation_id, line, product_key)
          do update set markup_percent_bp = excluded.markup_percent_bp`);
      },
    );
  });

  it('prices express rates with the new channel terms as soon as the change commits', async () => {
    const { id } = await f.as('customer').ok('/api/express/quotation/getQuotas', parcelShipment());
    await everyChangeSeenAtOnce(
      () => otherPrice('/api/express/quotation/rates', id, 'USG-STD'),
      async (round) => {
        await f.db.execute(sql`
          update express_channels set surcharges = jsonb_set(surcharges, '{fuelBp}', to_jsonb(${1_000 + round * 450}::int))
           where tenant_id = ${f.t.tenant.id}`);
      },
    );
  });

  it('prices with the new markup as soon as the change commits', async () => {
    const { id } = await f.as('customer').ok('/api/express/quotation/getQuotas', parcelShipment());
    await everyChangeSeenAtOnce(
      () => otherPrice('/api/express/quotation/rates', id, 'USG-STD'),
      async (round) => {
        await f.db.execute(sql`
          update price_levels set markup_percent_bp = ${1_000 + round * 300}
           where tenant_id = ${f.t.tenant.id} and organisation_id = ${express.orgs.customer as number}
             and line = 'express'`);
      },
    );
  });

  it("moves the tenant's generation once per committed change however many rows it writes, and not on a rollback", async () => {
    const tenantId = f.t.tenant.id;
    const lanes = (await f.db.execute(
      sql`select count(*)::int as n from express_zone_rows where tenant_id = ${tenantId}`,
    )) as unknown as {
      rows: { n: number }[];
    };
    expect(lanes.rows[0]?.n).toBeGreaterThan(1);
    const before = await readGenerations(f.db, tenantId);
    await f.db.execute(sql`update express_zone_rows set tenant_id = tenant_id where tenant_id = ${tenantId}`);
    const after = await readGenerations(f.db, tenantId);
    expect(after.channels).toBe(before.channels + 1n);
    expect([after.tariffs, after.markups]).toEqual([before.tariffs, before.markups]);
    await f.db
      .transaction(async (tx) => {
        await tx.execute(
          sql`update express_zone_rows set tenant_id = tenant_id where tenant_id = ${tenantId}`,
        );
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect(await readGenerations(f.db, tenantId)).toEqual(after);
    // Another tenant's generations are its own.
    expect((await readGenerations(f.db, tenantId + 1_000_000)).channels).toBe(0n);
  });

  it('keeps the price when a change is rolled back', async () => {
    const { id } = await f.as('customer').ok('/api/express/quotation/getQuotas', parcelShipment());
    const before = await otherPrice('/api/express/quotation/rates', id, 'USG-STD');
    // A rollback announces nothing and changes nothing.
    await f.db
      .transaction(async (tx) => {
        await tx.execute(sql`update express_channels set surcharges = jsonb_set(surcharges, '{fuelBp}', '9999')
           where tenant_id = ${f.t.tenant.id}`);
        throw new Error('rolled back');
      })
      .catch(() => {});
    expect(await otherPrice('/api/express/quotation/rates', id, 'USG-STD')).toBe(before);
  });
});
