import { formatPercentBp, parsePercentBp } from '@freight/contracts/customers';
import type { RatingRulesBody } from '@freight/contracts/express-channels';
import {
  DEFAULT_RATING_RULES,
  fuelInForce,
  type RatingRules,
  type SurchargeRule,
  shipDateToday,
} from '@freight/contracts/express-rating';
import { formatCents, parseMoney } from '@freight/contracts/money';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { type Caller, staffChannel } from './catalogue.ts';
import { expressChannels } from './schema.ts';
import type { ChannelRow } from './service.ts';

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
