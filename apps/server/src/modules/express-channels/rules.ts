import { formatPercentBp, parsePercentBp } from '@freight/contracts/customers';
import type { RatingRulesBody, SamplePriceBody } from '@freight/contracts/express-channels';
import { expressBreakdownOnWire } from '@freight/contracts/express-quotes';
import {
  DEFAULT_RATING_RULES,
  fuelInForce,
  type RatingRules,
  rateExpress,
  type SurchargeRule,
  shipDateToday,
  toUnits,
} from '@freight/contracts/express-rating';
import { formatCents, parseMoney } from '@freight/contracts/money';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { type Caller, staffChannel } from './catalogue.ts';
import { expressChannels } from './schema.ts';
import { type ChannelRow, channelTerms, zoneChartsOf } from './service.ts';

/*
 * A channel's rating rules (`RatingRules`): the service guide's rounding, thresholds, surcharge rules
 * and weekly fuel, kept on the channel beside its tables and read whole by rating.
 */

const cents = (money: string) => Number(parseMoney(money));

/** The rules as stored: cents, basis points, fuel rows by date. */
export function rulesToStored({ channelId: _channelId, ...body }: RatingRulesBody): RatingRules {
  return {
    dimRounding: body.dimRounding,
    dimThreshold: body.dimThreshold,
    underOneUnit: body.underOneUnit,
    beyondLastWeight: body.beyondLastWeight,
    cubic: body.cubic,
    surchargeRules: body.surchargeRules.map(
      (rule): SurchargeRule => ({
        name: rule.name,
        trigger: rule.trigger,
        over: rule.over,
        values: rule.trigger === 'zip5' || rule.trigger === 'packaging' ? rule.values : [],
        fee: cents(rule.fee),
        feeByZone: Object.fromEntries(rule.feeByZone.map((f) => [f.zone, cents(f.fee)])),
        fuel: rule.fuel,
        group: rule.group,
        replaces: rule.replaces,
        minBillable: rule.minBillable,
      }),
    ),
    fuel: body.fuel
      .map((f) => ({ from: f.from, bp: parsePercentBp(f.percent) }))
      .sort((a, b) => a.from.localeCompare(b.from)),
  };
}

export function rulesView(channel: ChannelRow) {
  const rules = channel.ratingRules ?? DEFAULT_RATING_RULES;
  return {
    channelId: channel.id,
    dimRounding: rules.dimRounding,
    dimThreshold: rules.dimThreshold,
    underOneUnit: rules.underOneUnit,
    beyondLastWeight: rules.beyondLastWeight,
    cubic: rules.cubic,
    surchargeRules: rules.surchargeRules.map((rule) => ({
      ...rule,
      fee: formatCents(rule.fee),
      feeByZone: Object.entries(rule.feeByZone).map(([zone, fee]) => ({ zone, fee: formatCents(fee) })),
    })),
    fuel: rules.fuel.map((f) => ({ from: f.from, percent: formatPercentBp(f.bp) })),
    fuelToday: formatPercentBp(fuelInForce(rules, channel.surcharges.fuelBp, shipDateToday())),
  };
}

export async function ratingRulesInfo(db: DbOrTx, caller: Caller, channelId: number) {
  return rulesView(await staffChannel(db, caller, channelId));
}

/** Replaces a channel's rating rules whole, as the rules page sends them. */
export async function saveRatingRules(db: DbOrTx, caller: Caller, body: RatingRulesBody) {
  await staffChannel(db, caller, body.channelId);
  const [row] = await db
    .update(expressChannels)
    .set({ ratingRules: rulesToStored(body) })
    .where(and(eq(expressChannels.tenantId, caller.tenantId), eq(expressChannels.id, body.channelId)))
    .returning();
  if (!row) throw notFound();
  return rulesView(row);
}

/**
 * One parcel priced at cost on the channel's own zone chart, price table and rules, as a quote on the
 * ship date would price it, with what each step read: for staff to work a carrier's invoice through.
 * A channel its carrier prices has no tables in use: it is refused.
 */
export async function sampleChannelPrice(db: DbOrTx, caller: Caller, body: SamplePriceBody) {
  const channel = await staffChannel(db, caller, body.channelId);
  if (channel.carrierAccountId !== null) throw conflict('expressChannel.sampleByCarrier');
  const zones = (await zoneChartsOf(db, caller.tenantId, [channel.id])).get(channel.id) ?? [];
  const terms = channelTerms(channel, zones);
  const rated = rateExpress(terms, {
    unitSystem: body.unitSystem,
    originZip: body.originZip.slice(0, 5),
    destinationCountry: body.destinationCountry,
    destinationZip: body.destinationZip,
    residential: body.residential,
    signature: body.signature,
    parcels: [{ ...body.parcel, quantity: 1, declaredValue: cents(body.parcel.declaredValue) }],
    ...(body.shipDate ? { shipDate: body.shipDate } : {}),
  });
  if (!rated.ok) return { ok: false as const, reason: rated.reason };
  const { breakdown } = rated;
  const rules = channel.ratingRules ?? DEFAULT_RATING_RULES;
  // The sides as the channel measured them: rounded where it rounds, else as given in its units.
  const asGiven = toUnits(
    { ...body.parcel, quantity: 1, declaredValue: 0 },
    body.unitSystem,
    channel.unitSystem,
  );
  const sides = breakdown.parcels[0]?.sides ?? [asGiven.length, asGiven.width, asGiven.height];
  return {
    ok: true as const,
    unitSystem: channel.unitSystem,
    dimDivisor: channel.dimDivisor,
    dimThreshold: rules.dimThreshold,
    dimRounding: rules.dimRounding,
    volume: Math.round(sides[0] * sides[1] * sides[2] * 100) / 100,
    breakdown: expressBreakdownOnWire(breakdown, true),
    freight: formatCents(breakdown.freight),
    surcharges: breakdown.surcharges.map((s) => ({ ...s, fee: formatCents(s.fee) })),
    fuel: formatCents(breakdown.fuel),
    total: formatCents(breakdown.total),
  };
}
