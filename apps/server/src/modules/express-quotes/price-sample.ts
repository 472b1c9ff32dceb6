import { formatPercentBp, parsePercentBp } from '@freight/contracts/customers';
import {
  type ExpressShipmentInput,
  expressMoney,
  type expressPriceSampleBody,
  visibleExpressLevels,
} from '@freight/contracts/express-quotes';
import { expressPriceLevels } from '@freight/contracts/express-rating';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import { forbidden, notFound } from '../../lib/errors.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { levelForProduct, priceLevelPath } from '../customers/price-levels.ts';
import { canSeeOrganisation, findOrganisation, organisationScope } from '../customers/service.ts';
import { expressPricer } from './service.ts';

type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;
type SampleInput = z.infer<typeof expressPriceSampleBody>;

/** A sample parcel between two places: only the ZIPs, the country and the parcel are rated. */
function sampleShipment(input: SampleInput): ExpressShipmentInput {
  const place = (zipcode: string, country: string) => ({
    name: 'Sample',
    company: '',
    address1: 'Sample',
    address2: '',
    city: 'Sample',
    state: '',
    zipcode,
    country,
    dialCode: '1',
    phone: '0000000000',
    email: '',
    residential: false,
  });
  return {
    sender: place(input.originZip, 'US'),
    recipient: place(input.destinationZip, input.destinationCountry),
    unitSystem: input.unitSystem,
    parcels: [
      {
        quantity: 1,
        length: input.length,
        width: input.width,
        height: input.height,
        weight: input.weight,
        declaredValue: '0',
        description: '',
        packaging: 'box',
      },
    ],
    signature: false,
    reference: '',
    shipDate: '',
  };
}

/**
 * `express/price/sample`: a sample parcel priced on every channel open to an organisation the caller
 * sets prices for (staff: any; a branch or agent: one below it), by the quotes' own pricer, and each
 * level's price from the operator's cost down to that organisation. With `levels`, the organisation's
 * markups as edited price instead of its saved ones. Staff see every level; others their own and below.
 */
export async function expressPriceSample(db: DbOrTx, caller: Caller, input: SampleInput) {
  const organisation = await findOrganisation(db, caller.tenantId, input.organisationId);
  const scope = await organisationScope(db, caller);
  if (!organisation || !(await canSeeOrganisation(db, scope, organisation.id))) throw notFound();
  const staff = caller.identity === 'employee';
  // As with saving a markup: a parent prices those below it, nobody prices itself.
  if (!staff && organisation.id === caller.organisationId) throw forbidden();

  const [path, results] = await Promise.all([
    priceLevelPath(db, caller.tenantId, organisation, 'express'),
    expressPricer(db, caller.tenantId, organisation).priceAll(sampleShipment(input)),
  ]);
  const edited = input.levels?.map((l) => ({
    productKey: l.productKey,
    markupPercentBp: parsePercentBp(l.markupPercent),
    markupFixedCents: parseMoney(l.markupFixed),
  }));

  return {
    results: results.map((result) => {
      const channel = {
        channelId: result.channelId,
        code: result.code,
        name: result.name,
        nameEn: result.nameEn,
        productName: result.productName,
        productNameEn: result.productNameEn,
      };
      if (!result.ok)
        return { ...channel, ok: false, reason: result.reason, zone: null, billableWeight: null, levels: [] };
      // Each organisation's markup for this channel, as `markupChains` resolves it for a quote.
      const chain = path.map((step) => {
        const own = step.organisationId === organisation.id && edited ? edited : step.levels;
        const level = levelForProduct(own, result.code);
        return {
          ...step,
          source: !level ? ('none' as const) : level.productKey ? ('channel' as const) : ('default' as const),
          markup: { percentBp: level?.markupPercentBp ?? 0, fixedCents: level?.markupFixedCents ?? 0n },
        };
      });
      const priced = expressPriceLevels(
        result.breakdown,
        chain.map((c) => ({
          organisationId: c.organisationId,
          type: c.type,
          markup: { percentBp: c.markup.percentBp, fixedCents: Number(c.markup.fixedCents) },
        })),
      );
      const levels = visibleExpressLevels(priced, staff ? null : caller.organisationId).map((level) => {
        const step = chain.find((c) => c.organisationId === level.organisationId);
        return {
          organisationId: level.organisationId,
          type: level.type,
          name: step?.name ?? '',
          markupPercent: formatPercentBp(step?.markup.percentBp ?? 0),
          markupFixed: formatMoney(step?.markup.fixedCents ?? 0n),
          source: step?.source ?? ('none' as const),
          total: expressMoney(level.total),
        };
      });
      return {
        ...channel,
        ok: true,
        reason: null,
        zone: result.breakdown.zone,
        billableWeight: result.breakdown.billableWeight,
        levels,
      };
    }),
  };
}
