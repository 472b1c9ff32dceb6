import type { Language } from '@freight/contracts/api';
import type { ExpressQuoteResult, ExpressShipmentInput } from '@freight/contracts/express-quotes';
import { RETURNABLE } from '@freight/contracts/express-waybills';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { badField, conflict, isUniqueViolation, notFound } from '../../lib/errors.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { visibleExpressAddress } from '../addresses/express-service.ts';
import { findOrganisation, organisationScope } from '../customers/service.ts';
import { expressPricer, insertBookedExpressQuotes } from '../express-quotes/service.ts';
import { bookAddress } from './batch.ts';
import { expressWaybills } from './schema.ts';
import { insertWaybills, payOnBooking, visibleWaybill, type WaybillRow } from './service.ts';

type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;
type Priced = Extract<ExpressQuoteResult, { ok: true }>;

async function returnOf(db: DbOrTx, tenantId: number, waybillId: number): Promise<WaybillRow | null> {
  const [row] = await db
    .select()
    .from(expressWaybills)
    .where(and(eq(expressWaybills.tenantId, tenantId), eq(expressWaybills.returnOfId, waybillId)))
    .limit(1);
  return row ?? null;
}

/** The priced channel a return goes on: the one asked for, else the original's, else the cheapest. */
function chooseChannel(results: ExpressQuoteResult[], asked: number | undefined, original: number): Priced {
  const priced = results.filter((r): r is Priced => r.ok);
  if (asked !== undefined) {
    const result = results.find((r) => r.channelId === asked);
    if (!result) throw badField('channelId', 'expressQuote.channelNotQuoted');
    if (!result.ok) throw badField('channelId', `expressQuote.refusal.${result.reason}`);
    return result;
  }
  const same = priced.find((r) => r.channelId === original);
  const cheapest = priced.find((r) => r.cheapest);
  const chosen = same ?? cheapest ?? priced[0];
  if (!chosen) throw conflict('expressReturn.noChannel');
  return chosen;
}

/**
 * `order/createReturn`: a return waybill for a parcel that reached its recipient (or went wrong),
 * from that recipient back to a return address of the booking organisation's book, priced for that
 * organisation like any quote and booked unpaid, or paid at once when asked. A waybill has one return:
 * asking again, or twice at once, answers the return already made.
 */
export async function createReturnFor(
  db: DbOrTx,
  caller: Caller,
  input: { id: number; returnAddressId: number; channelId?: number; pay: boolean },
  language: Language,
) {
  const original = await visibleWaybill(db, caller, input.id);
  if (original.returnOfId !== null) throw conflict('expressReturn.ofReturn');
  const existing = await returnOf(db, original.tenantId, original.id);
  if (existing) return { waybill: existing, payment: null };
  if (!RETURNABLE.includes(original.status))
    throw conflict('expressReturn.notReturnable', { waybillNo: original.waybillNo });

  const scope = await organisationScope(db, caller);
  const entry = await visibleExpressAddress(db, scope, input.returnAddressId);
  if (!entry || entry.organisationId !== original.organisationId || entry.kind !== 'return')
    throw badField('returnAddressId', 'expressReturn.addressNotFound');
  const shipment: ExpressShipmentInput = {
    sender: { ...original.shipment.recipient },
    recipient: bookAddress(entry, language, 'returnAddressId'),
    unitSystem: original.shipment.unitSystem,
    parcels: original.shipment.parcels,
    signature: false,
    reference: `RTN ${original.waybillNo}`,
    shipDate: '',
  };
  const organisation = await findOrganisation(db, original.tenantId, original.organisationId);
  if (!organisation) throw notFound();
  // A return label is booked at once, which a carrier-priced channel cannot be yet: tables only.
  const results = await expressPricer(db, original.tenantId, organisation, { tablesOnly: true }).priceAll(
    shipment,
  );
  const result = chooseChannel(results, input.channelId, original.channelId);

  let created: WaybillRow | null = null;
  try {
    created = await db.transaction(async (tx) => {
      const [quote] = await insertBookedExpressQuotes(tx, original.tenantId, [
        {
          organisationId: original.organisationId,
          userId: caller.id,
          shipment,
          results,
          channelId: result.channelId,
        },
      ]);
      const [waybill] = await insertWaybills(tx, original.tenantId, [
        {
          organisationId: original.organisationId,
          userId: caller.id,
          quoteId: quote?.id as number,
          shipment,
          result,
          returnOf: { id: original.id, waybillNo: original.waybillNo },
        },
      ]);
      return waybill ?? null;
    });
  } catch (error) {
    // Another request made the return first: that one is the answer.
    if (!isUniqueViolation(error)) throw error;
  }
  const waybill = created ?? (await returnOf(db, original.tenantId, original.id));
  if (!waybill) throw conflict('expressReturn.noChannel');
  if (!input.pay || !created) return { waybill, payment: null };
  return payOnBooking(db, caller, waybill, language);
}
