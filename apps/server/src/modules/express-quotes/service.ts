import {
  type ExpressQuoteAction,
  type ExpressQuoteChannel,
  type ExpressQuoteResult,
  type ExpressQuoteStatus,
  type ExpressResultWire,
  type ExpressShipmentInput,
  expressMoney,
  expressResultOnWire,
  markBestExpress,
  ratedShipment,
  visibleExpressLevels,
} from '@freight/contracts/express-quotes';
import { type ExpressShipment, expressPriceLevels } from '@freight/contracts/express-rating';
import { and, count, desc, eq, gte, ilike, inArray, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { generationsNow } from '../../db/cache-generations.ts';
import type { DbOrTx } from '../../db/client.ts';
import { idsByNumber, recordSet } from '../../lib/bulk-insert.ts';
import { badField, conflict, notFound } from '../../lib/errors.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { hiddenExpressChannelIds } from '../auth/service.ts';
import { BUILTIN_PROVIDER } from '../carriers/provider.ts';
import { markupChains } from '../customers/price-levels.ts';
import {
  canSeeOrganisation,
  findOrganisation,
  type OrganisationRow,
  organisationScope,
  visibleOrganisationIds,
} from '../customers/service.ts';
import { expressCarriers } from '../express-channels/carriers.ts';
import { channelChoicesForOrganisation, channelsForOrganisation } from '../express-channels/service.ts';
import { nextSerial, nextSerials } from '../numbering/service.ts';
import { expressQuotes } from './schema.ts';

export type ExpressQuoteRow = typeof expressQuotes.$inferSelect;
type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;
type QuotableChannel = Awaited<ReturnType<typeof channelsForOrganisation>>[number];

const isStaff = (user: Pick<RequestUser, 'identity'>) => user.identity === 'employee';
const pathIds = (organisation: Pick<OrganisationRow, 'path'>) =>
  organisation.path.split('/').filter(Boolean).map(Number);

/** The channel a result is for, as quotes keep it. */
function channelOfQuote(channel: QuotableChannel): ExpressQuoteChannel {
  return {
    channelId: channel.id,
    productId: channel.productId,
    code: channel.code,
    name: channel.name,
    nameEn: channel.nameEn,
    productName: channel.productName,
    productNameEn: channel.productNameEn,
    carrier: channel.carrier,
    service: channel.service,
    scope: channel.scope,
    transitDaysMin: channel.transitDaysMin,
    transitDaysMax: channel.transitDaysMax,
    provider: channel.provider,
  };
}

/** The channels an organisation may quote on, for the form's options. */
export async function quotableChannels(db: DbOrTx, tenantId: number, organisationId: number | null) {
  if (organisationId === null) return channelChoicesForOrganisation(db, tenantId, null);
  const organisation = await findOrganisation(db, tenantId, organisationId);
  return organisation ? channelChoicesForOrganisation(db, tenantId, pathIds(organisation)) : [];
}

/**
 * The one pricing path of express quotes and batch files: every channel open to the organisation,
 * priced at cost by its carrier provider, then marked up level by level down the tree. Channels,
 * tables and markups are read once however many shipments follow, and are no older than what had
 * committed when the pricer was made.
 */
export function expressPricer(
  db: DbOrTx,
  tenantId: number,
  organisation: Pick<OrganisationRow, 'id' | 'path'>,
  options: {
    /** Channels the quoting user's settings leave out (`setQuotationConfig`). */
    hiddenChannelIds?: readonly number[];
    /** Only channels priced from the tenant's tables (a batch file, a return label booked at once). */
    tablesOnly?: boolean;
  } = {},
) {
  const prepared = (async () => {
    const hidden = new Set(options.hiddenChannelIds ?? []);
    const seen = await generationsNow(db, tenantId);
    const channels = (await channelsForOrganisation(db, tenantId, pathIds(organisation), seen)).filter(
      (c) => !hidden.has(c.id) && (!options.tablesOnly || c.provider === BUILTIN_PROVIDER),
    );
    const providers = [...new Set(channels.map((c) => c.provider))];
    const [chains, raters] = await Promise.all([
      markupChains(
        db,
        tenantId,
        organisation.id,
        'express',
        channels.map((c) => c.code),
        seen,
      ),
      Promise.all(
        providers.map(async (name) => {
          const provider = expressCarriers.find(name);
          const served = channels.filter((c) => c.provider === name);
          return [name, provider ? await provider.rater(db, tenantId, served) : null] as const;
        }),
      ),
    ]);
    return { channels, chains, raters: new Map(raters) };
  })();

  /** One channel's result for a shipment as the raters take it. */
  async function priceOne(
    channel: Awaited<typeof prepared>['channels'][number],
    rated: ExpressShipment,
  ): Promise<ExpressQuoteResult> {
    const { chains, raters } = await prepared;
    const base = channelOfQuote(channel);
    const rater = raters.get(channel.provider);
    if (!rater) return { ...base, ok: false, reason: 'no_carrier' };
    const rate = await rater.rate(channel, rated);
    if (!rate.ok)
      return {
        ...base,
        ok: false,
        reason: rate.reason,
        ...(rate.failure ? { failure: rate.failure } : {}),
      };
    const chain = (chains.get(channel.code) ?? []).map((level) => ({
      organisationId: level.organisationId,
      type: level.type,
      markup: { percentBp: level.markup.percentBp, fixedCents: Number(level.markup.fixedCents) },
    }));
    return {
      ...base,
      ok: true,
      breakdown: rate.cost,
      levels: expressPriceLevels(rate.cost, chain),
      cheapest: false,
      fastest: false,
    };
  }

  /**
   * Each channel's result as soon as its provider answers: every channel is asked at once, so a slow
   * carrier (bounded by its account's time limit) holds up only its own line, and the tables' answers
   * come first.
   */
  async function* price(shipment: ExpressShipmentInput): AsyncGenerator<ExpressQuoteResult> {
    const { channels } = await prepared;
    const rated = ratedShipment(shipment);
    const waiting = new Map(
      channels.map((channel, index) => [
        index,
        priceOne(channel, rated).then((result) => ({ index, result })),
      ]),
    );
    while (waiting.size > 0) {
      const { index, result } = await Promise.race(waiting.values());
      waiting.delete(index);
      yield result;
    }
  }

  /** Results as they came, back in the channels' order, with the cheapest and fastest marked. */
  async function settled(results: ExpressQuoteResult[]): Promise<ExpressQuoteResult[]> {
    const order = new Map((await prepared).channels.map((c, i) => [c.id, i]));
    const sorted = [...results].sort((a, b) => (order.get(a.channelId) ?? 0) - (order.get(b.channelId) ?? 0));
    return markBestExpress(sorted);
  }

  /** Every channel's result at once, in the channels' order, with the cheapest and fastest marked. */
  async function priceEvery(rated: ExpressShipment): Promise<ExpressQuoteResult[]> {
    const { channels } = await prepared;
    return markBestExpress(await Promise.all(channels.map((channel) => priceOne(channel, rated))));
  }

  /**
   * Tables-only prices by what the tables read of a shipment: the parties (names, phones, streets) go
   * to a carrier's API, never into a table's zone, weight or surcharge. A batch file repeats its
   * parcels and lanes, and each such shipment is priced once for the file.
   */
  const pricedByTables = options.tablesOnly ? new Map<string, Promise<ExpressQuoteResult[]>>() : null;

  /** Every channel's result, in the channels' order. */
  function priceAll(shipment: ExpressShipmentInput): Promise<ExpressQuoteResult[]> {
    const rated = ratedShipment(shipment);
    if (!pricedByTables) return priceEvery(rated);
    const { parties: _parties, ...read } = rated;
    const key = JSON.stringify(read);
    let results = pricedByTables.get(key);
    if (!results) {
      results = priceEvery(read);
      pricedByTables.set(key, results);
    }
    return results;
  }

  return { price, priceAll, settled };
}

/* ---------- quotes ---------- */

/** The organisation a quote is for: staff name a customer, others quote for themselves or one below. */
export async function quoteOrganisation(db: DbOrTx, caller: Caller, wanted?: number): Promise<number | null> {
  const id = wanted ?? caller.organisationId;
  if (!id) return null;
  const scope = await organisationScope(db, caller);
  return (await canSeeOrganisation(db, scope, id)) ? id : null;
}

/** `quotation/getQuotas`: a new quote for the caller's organisation or one it may quote for. */
export async function saveExpressQuote(
  db: DbOrTx,
  caller: Caller,
  input: ExpressShipmentInput & { organisationId?: number },
): Promise<ExpressQuoteRow> {
  const { organisationId: wanted, ...shipment } = input;
  const organisationId = await quoteOrganisation(db, caller, wanted);
  if (!organisationId) throw badField('organisationId', 'quote.organisationRequired');
  const quoteNo = await nextSerial(db, caller.tenantId, 'EQ');
  const [row] = await db
    .insert(expressQuotes)
    .values({ tenantId: caller.tenantId, organisationId, userId: caller.id, quoteNo, shipment })
    .returning();
  return row as ExpressQuoteRow;
}

async function findExpressQuote(db: DbOrTx, tenantId: number, id: number) {
  const [row] = await db
    .select()
    .from(expressQuotes)
    .where(and(eq(expressQuotes.tenantId, tenantId), eq(expressQuotes.id, id)))
    .limit(1);
  return row ?? null;
}

/** A quote the caller may see (its own organisation's or one below it; staff see all), or 404. */
export async function visibleExpressQuote(db: DbOrTx, caller: Caller, id: number): Promise<ExpressQuoteRow> {
  const quote = await findExpressQuote(db, caller.tenantId, id);
  if (!quote) throw notFound();
  const scope = await organisationScope(db, caller);
  if (!(await canSeeOrganisation(db, scope, quote.organisationId))) throw notFound();
  return quote;
}

export const expressQuoteExpired = (quote: Pick<ExpressQuoteRow, 'expiresAt'>, now = new Date()) =>
  quote.expiresAt !== null && quote.expiresAt <= now;

/**
 * A quote not yet booked, as a write's condition: a booking since the quote was read stays the last
 * word over a pricing, a selection or a second booking.
 */
const unbooked = (tenantId: number, id: number) =>
  and(
    eq(expressQuotes.tenantId, tenantId),
    eq(expressQuotes.id, id),
    inArray(expressQuotes.status, ['open', 'selected']),
  );

/**
 * `quotation/rates`: prices a visible quote on every channel open to its organisation, handing each
 * result as the caller may see it to `onResult` as soon as it is ready, then stores them all with
 * the expiry. Pricing again clears an earlier selection.
 */
export async function rateExpressQuoteFor(
  db: DbOrTx,
  caller: Caller,
  id: number,
  ttlHours: number,
  onResult: (result: ExpressResultWire) => void | Promise<void> = () => {},
): Promise<{ results: ExpressResultWire[]; expiresAt: Date }> {
  const quote = await visibleExpressQuote(db, caller, id);
  if (quote.status === 'booked') throw conflict('quote.booked');
  const organisation = await findOrganisation(db, quote.tenantId, quote.organisationId);
  if (!organisation) throw notFound();
  // The channels the caller chose not to see are not priced, so they can be neither shown nor selected.
  const hiddenChannelIds = await hiddenExpressChannelIds(db, caller.tenantId, caller.id);
  const pricer = expressPricer(db, quote.tenantId, organisation, { hiddenChannelIds });
  const results: ExpressQuoteResult[] = [];
  for await (const result of pricer.price(quote.shipment)) {
    results.push(result);
    await onResult(expressResultForCaller(result, caller));
  }
  const best = await pricer.settled(results);
  const expiresAt = new Date(Date.now() + ttlHours * 3_600_000);
  const [stored] = await db
    .update(expressQuotes)
    .set({ results: best, pricedAt: new Date(), expiresAt, status: 'open', selectedChannelId: null })
    .where(unbooked(quote.tenantId, quote.id))
    .returning({ id: expressQuotes.id });
  if (!stored) throw conflict('quote.booked');
  return { results: best.map((r) => expressResultForCaller(r, caller)), expiresAt };
}

/**
 * `quotation/select`: fixes the channel of a live, priced quote. Selecting again changes the choice
 * until the waybill is booked.
 */
export async function selectExpressChannelFor(db: DbOrTx, caller: Caller, id: number, channelId: number) {
  const quote = await visibleExpressQuote(db, caller, id);
  if (quote.status === 'booked') throw conflict('quote.booked');
  if (quote.results.length === 0) throw conflict('expressQuote.notPriced');
  if (expressQuoteExpired(quote)) throw conflict('quote.expired');
  const result = quote.results.find((r) => r.channelId === channelId);
  if (!result) throw badField('channelId', 'expressQuote.channelNotQuoted');
  if (!result.ok) throw badField('channelId', `expressQuote.refusal.${result.reason}`);
  const [row] = await db
    .update(expressQuotes)
    .set({ status: 'selected', selectedChannelId: channelId })
    .where(unbooked(quote.tenantId, quote.id))
    .returning({ status: expressQuotes.status });
  if (!row) throw conflict('quote.booked');
  const levels = visibleExpressLevels(result.levels, isStaff(caller) ? null : caller.organisationId);
  const customer = result.levels[result.levels.length - 1];
  return {
    id: quote.id,
    status: 'selected' as const,
    selectedChannelId: channelId,
    // Staff see what the booking customer pays; others see their own price, the last level they may see.
    total: expressMoney((isStaff(caller) ? customer : levels[levels.length - 1])?.total ?? 0),
  };
}

/**
 * A result as the caller may see it: staff see every level and the cost parts; an organisation sees
 * its own price and those below it, and of the rating only the weights.
 */
export function expressResultForCaller(result: ExpressQuoteResult, caller: Caller): ExpressResultWire {
  if (!result.ok || isStaff(caller)) return expressResultOnWire(result, null, true);
  return expressResultOnWire(result, visibleExpressLevels(result.levels, caller.organisationId), false);
}

function quoteStatus(quote: ExpressQuoteRow): ExpressQuoteStatus {
  return quote.status !== 'booked' && expressQuoteExpired(quote) ? 'expired' : quote.status;
}

/** A booked quote is closed; a live priced one may be selected, a selected one booked. */
export function expressQuoteActions(quote: ExpressQuoteRow): ExpressQuoteAction[] {
  if (quote.status === 'booked') return [];
  if (expressQuoteExpired(quote) || !quote.results.some((r) => r.ok)) return ['requote'];
  return quote.status === 'selected' ? ['select', 'book', 'requote'] : ['select', 'requote'];
}

export function expressQuoteForCaller(quote: ExpressQuoteRow, caller: Caller) {
  const { tenantId: _t, results, ...rest } = quote;
  return {
    ...rest,
    status: quoteStatus(quote),
    expired: expressQuoteExpired(quote),
    results: results.map((r) => expressResultForCaller(r, caller)),
    actions: expressQuoteActions(quote),
  };
}

export async function expressQuoteInfoFor(db: DbOrTx, caller: Caller, id: number) {
  return expressQuoteForCaller(await visibleExpressQuote(db, caller, id), caller);
}

/** `/queryQuotation`: the quotes the caller may see, newest first. */
export async function listExpressQuotesFor(
  db: DbOrTx,
  caller: Caller,
  filter: { keyword?: string; status?: ExpressQuoteStatus; page: number; limit: number },
) {
  const scope = await organisationScope(db, caller);
  const now = new Date();
  const live = or(gte(expressQuotes.expiresAt, now), isNull(expressQuotes.expiresAt));
  const status: SQL | undefined =
    filter.status === 'expired'
      ? and(inArray(expressQuotes.status, ['open', 'selected']), lt(expressQuotes.expiresAt, now))
      : filter.status === 'open' || filter.status === 'selected'
        ? and(eq(expressQuotes.status, filter.status), live)
        : filter.status
          ? eq(expressQuotes.status, filter.status)
          : undefined;
  const condition = and(
    eq(expressQuotes.tenantId, caller.tenantId),
    inArray(expressQuotes.organisationId, visibleOrganisationIds(db, scope)),
    filter.keyword
      ? ilike(expressQuotes.quoteNo, `${filter.keyword.replace(/[%_\\]/g, '\\$&')}%`)
      : undefined,
    status,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(expressQuotes)
      .where(condition)
      .orderBy(desc(expressQuotes.id))
      .limit(filter.limit)
      .offset((filter.page - 1) * filter.limit),
    db.select({ n: count() }).from(expressQuotes).where(condition),
  ]);
  return {
    list: rows.map((q) => expressQuoteForCaller(q, caller)),
    total: total?.n ?? 0,
    page: filter.page,
    limit: filter.limit,
  };
}

/** Marks a quote booked once; false when another booking took it first. */
export async function markExpressQuoteBooked(db: DbOrTx, tenantId: number, id: number): Promise<boolean> {
  const rows = await db
    .update(expressQuotes)
    .set({ status: 'booked' })
    .where(unbooked(tenantId, id))
    .returning({ id: expressQuotes.id });
  return rows.length === 1;
}

/** Quotes a statement of a batch: one JSON parameter each. */
const INSERT_CHUNK = 1_000;

/**
 * Quotes priced elsewhere (a batch file, by `expressPricer`) and booked at once on their chosen
 * channel: stored as booked with every channel's result, as a quote booked from the page ends up.
 * Numbers are taken in one go; run it in the transaction that books the waybills.
 */
export async function insertBookedExpressQuotes(
  db: DbOrTx,
  tenantId: number,
  quotes: readonly {
    organisationId: number;
    userId: number;
    shipment: ExpressShipmentInput;
    results: ExpressQuoteResult[];
    channelId: number;
  }[],
): Promise<{ id: number; quoteNo: string }[]> {
  if (quotes.length === 0) return [];
  const numbers = await nextSerials(db, tenantId, 'EQ', quotes.length);
  const pricedAt = new Date();
  // One JSON parameter a chunk, each chunk built while the database writes the one before.
  const ids = await idsByNumber(
    db,
    quotes.length,
    INSERT_CHUNK,
    (from, to) => {
      const rows = recordSet(
        expressQuotes,
        quotes.slice(from, to).map((quote, j) => ({
          tenantId,
          organisationId: quote.organisationId,
          userId: quote.userId,
          quoteNo: numbers[from + j] as string,
          status: 'booked' as const,
          shipment: quote.shipment,
          results: quote.results,
          selectedChannelId: quote.channelId,
          pricedAt,
        })),
      );
      return sql`insert into ${expressQuotes} (${rows.columns}) select ${rows.values} from ${rows.source}
        returning id, quote_no`;
    },
    'quote_no',
  );
  // In the order asked: the numbers were handed out in that order.
  return numbers.map((quoteNo) => ({ id: ids.get(quoteNo) as number, quoteNo }));
}
