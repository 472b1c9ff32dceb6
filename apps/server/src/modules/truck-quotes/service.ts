import { createHash } from 'node:crypto';
import {
  markBest,
  priceLevels,
  type QuoteAction,
  type QuoteRefusal,
  type QuoteResult,
  type QuoteResultWire,
  resultOnWire,
  visibleLevels,
} from '@freight/contracts/truck-quotes';
import { type ManualReason, manualReason, type Shipment } from '@freight/contracts/truck-shipment';
import {
  and,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  ilike,
  inArray,
  isNull,
  lt,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { type AnyPgColumn, PgTransaction } from 'drizzle-orm/pg-core';
import { LRUCache } from 'lru-cache';
import {
  type Generations,
  generationsColumn,
  generationsNow,
  parseGenerations,
} from '../../db/cache-generations.ts';
import { type DbOrTx, onDistributedDatabase } from '../../db/client.ts';
import { perHandle } from '../../db/per-handle.ts';
import { badField, conflict, notFound } from '../../lib/errors.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { saveAddress } from '../addresses/service.ts';
import { BUILTIN_PROVIDER } from '../carriers/provider.ts';
import {
  heldMarkups,
  type MarkupChain,
  markupChains,
  visibleOrganisationHeld,
} from '../customers/price-levels.ts';
import {
  canSeeOrganisation,
  type OrganisationRow,
  organisationScope,
  visibleOrganisationIds,
} from '../customers/service.ts';
import { nextSerial } from '../numbering/service.ts';
import { type TruckCarrierProvider, truckCarriers } from '../truck-products/carriers.ts';
import {
  enabledProducts,
  type ProductRow,
  productOfQuote,
  productOpenTo,
  tenantTariffs,
} from '../truck-products/service.ts';
import { type quotationTasks, truckQuotes } from './schema.ts';

export type QuoteRow = typeof truckQuotes.$inferSelect;
export type TaskRow = typeof quotationTasks.$inferSelect;
export type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;

export const isStaff = (user: Pick<RequestUser, 'identity'>) => user.identity === 'employee';

/* ---------- quotes ---------- */

export async function createQuote(
  db: DbOrTx,
  input: { tenantId: number; organisationId: number; userId: number; shipment: Shipment },
) {
  const quoteNo = await nextSerial(db, input.tenantId, 'Q');
  const [row] = await db
    .insert(truckQuotes)
    .values({ ...input, quoteNo, manualReason: manualReason(input.shipment) })
    .returning();
  return row as QuoteRow;
}

/** The quote form's "save to address book" ticks: those ends go into the customer's book. */
async function saveToBook(
  db: DbOrTx,
  caller: Caller,
  organisationId: number,
  ends: Partial<Pick<Shipment, 'pickup' | 'delivery'>>,
) {
  for (const end of [ends.pickup, ends.delivery]) {
    if (!end?.saveToBook) continue;
    const { saveToBook: _s, ...address } = end;
    await saveAddress(db, {
      tenantId: caller.tenantId,
      organisationId,
      userId: caller.id,
      address,
      isDefaultPickup: false,
    });
  }
}

/** `quotation/save`: a new quote for the caller's organisation or one it may quote for. */
export async function saveQuote(
  db: DbOrTx,
  caller: Caller,
  input: Shipment & { organisationId?: number },
): Promise<QuoteRow> {
  const { organisationId: wanted, ...shipment } = input;
  const organisationId = await quoteOrganisation(db, caller, wanted);
  if (!organisationId) throw badField('organisationId', 'quote.organisationRequired');
  const quote = await createQuote(db, {
    tenantId: caller.tenantId,
    organisationId,
    userId: caller.id,
    shipment,
  });
  await saveToBook(db, caller, organisationId, shipment);
  return quote;
}

/** New addresses, goods, services or dates for a visible quote: its old prices are gone. */
export async function changeQuote(
  db: DbOrTx,
  caller: Caller,
  id: number,
  change: Partial<Shipment>,
): Promise<QuoteRow> {
  const quote = await visibleQuote(db, caller, id);
  await replaceShipment(db, quote, { ...quote.shipment, ...change });
  await saveToBook(db, caller, quote.organisationId, change);
  return quote;
}

export async function findQuote(db: DbOrTx, tenantId: number, id: number) {
  const [row] = await db
    .select()
    .from(truckQuotes)
    .where(and(eq(truckQuotes.tenantId, tenantId), eq(truckQuotes.id, id)))
    .limit(1);
  return row ?? null;
}

/** A quote's row but its stored prices: what pricing it again reads. */
export type QuoteToPrice = Omit<QuoteRow, 'results'>;
const { results: _results, ...columnsToPrice } = getTableColumns(truckQuotes);

/**
 * Reading a quote to price and storing its prices are the statements of every quote form's call:
 * each is built once per database handle and prepared once per connection (a fifth of a quote's
 * time had gone into building them again).
 */
const pricingStatementsFor = perHandle((db: DbOrTx) => {
  const tenantId = sql.placeholder('tenantId');
  const id = sql.placeholder('id');
  const thisQuote = and(eq(truckQuotes.tenantId, tenantId), eq(truckQuotes.id, id));
  // Prices are written only to a quote not booked meanwhile: a booking in between stays the last word.
  // Their commit does not wait for the disk (`synchronous_commit` off for the statement's own
  // transaction): a crash may lose the last fraction of a second of pricings, which the customer
  // prices again, never anything else, as any later commit that waits (a booking) writes them first.
  // Citus refuses a volatile function there; its workers' commits are their own anyway.
  const openQuote = and(
    thisQuote,
    ne(truckQuotes.status, 'booked'),
    onDistributedDatabase() ? undefined : sql`set_config('synchronous_commit', 'off', true) = 'off'`,
  );
  // A value given at each call, converted as the column converts it (times to text).
  const given = (name: string, column: AnyPgColumn) => sql`${sql.param(sql.placeholder(name), column)}`;
  // The times are the database's: a prepared statement would otherwise keep the first call's.
  const priced = {
    pricedAt: sql`now()`,
    updatedAt: sql`now()`,
    expiresAt: given('expiresAt', truckQuotes.expiresAt),
    status: 'open' as const,
    manualReason: sql`${sql.placeholder('manualReason')}`,
  };
  // Read with the quote in the same round trip: what the pricing caches must be at least as new as.
  const generations = generationsColumn(tenantId);
  return {
    read: db
      .select({ ...columnsToPrice, generations })
      .from(truckQuotes)
      .where(thisQuote)
      .limit(1)
      .prepare('truck_quote_to_price'),
    // The prices go as the JSON text already made for them (`HeldPrices.stored`).
    store: db
      .update(truckQuotes)
      .set({
        ...priced,
        results: sql`${sql.placeholder('results')}`,
        resultsDigest: sql`${sql.placeholder('digest')}`,
      })
      // Only onto the shipment they are the prices of: a change of it since it was read wins.
      .where(and(openQuote, sql`${truckQuotes.shipment} = ${sql.placeholder('shipment')}::jsonb`))
      .returning({ id: truckQuotes.id })
      .prepare('truck_quote_store_prices'),
    // The same shipment at the same prices again: only the expiry moves, and only while the quote
    // stores exactly those (the digest covers both) for the organisation the caller was cleared for;
    // with `liveOnly`, only while they are still live (`pricedAgain`, which read nothing first).
    refresh: db
      .update(truckQuotes)
      .set(priced)
      .where(
        and(
          openQuote,
          eq(truckQuotes.organisationId, sql.placeholder('organisationId')),
          eq(truckQuotes.resultsDigest, sql.placeholder('digest')),
          sql`(not ${sql.placeholder('liveOnly')}::boolean or ${truckQuotes.expiresAt} > now())`,
        ),
      )
      .returning({ id: truckQuotes.id, generations })
      .prepare('truck_quote_refresh_prices'),
  };
});

/** A quote to price, and the tenant's generations as its read saw them. */
async function quoteToPrice(
  db: DbOrTx,
  tenantId: number,
  id: number,
): Promise<{ quote: QuoteToPrice; seen: Generations } | null> {
  const [row] = await pricingStatementsFor(db).read.execute({ tenantId, id });
  if (!row) return null;
  const { generations, ...quote } = row;
  return { quote, seen: parseGenerations(generations) };
}

/** A quote the caller may see (its own organisation's or one below it; staff see all), or 404. */
export async function visibleQuote(db: DbOrTx, caller: Caller, id: number): Promise<QuoteRow> {
  const quote = await findQuote(db, caller.tenantId, id);
  if (!quote) throw notFound();
  const scope = await organisationScope(db, caller);
  if (!(await canSeeOrganisation(db, scope, quote.organisationId))) throw notFound();
  return quote;
}

/** The organisation a quote is for: staff name a customer, others quote for themselves or one below. */
export async function quoteOrganisation(db: DbOrTx, caller: Caller, wanted?: number): Promise<number | null> {
  const id = wanted ?? caller.organisationId;
  if (!id) return null;
  const scope = await organisationScope(db, caller);
  return (await canSeeOrganisation(db, scope, id)) ? id : null;
}

/** The shipment changed: its old prices no longer apply and it must be quoted again. */
export async function replaceShipment(db: DbOrTx, quote: QuoteRow, shipment: Shipment) {
  if (quote.status === 'booked') throw conflict('quote.booked');
  // Only while it is not booked: a booking since the quote was read keeps its shipment and prices.
  const [changed] = await db
    .update(truckQuotes)
    .set({
      shipment,
      results: [],
      resultsDigest: null,
      status: 'open',
      pricedAt: null,
      expiresAt: null,
      manualReason: manualReason(shipment),
    })
    .where(
      and(
        eq(truckQuotes.tenantId, quote.tenantId),
        eq(truckQuotes.id, quote.id),
        ne(truckQuotes.status, 'booked'),
      ),
    )
    .returning({ id: truckQuotes.id });
  if (!changed) throw conflict('quote.booked');
}

export const quoteExpired = (quote: Pick<QuoteRow, 'expiresAt'>, now = new Date()) =>
  quote.expiresAt !== null && quote.expiresAt <= now;

type TruckRater = Awaited<ReturnType<TruckCarrierProvider['rater']>>;

/** What pricing one mode needs, read once: the products open to the organisation, their markups, their raters. */
interface ModePricing {
  products: ProductRow[];
  chains: Map<string, MarkupChain>;
  /** By provider name; null for a name no provider answers to. */
  raters: Map<string, TruckRater | null>;
}

/**
 * The one pricing path of truck quotes and batch files: every enabled product open to the
 * organisation, priced at cost by its carrier provider, then marked up level by level down the
 * tree. Products, tariffs and markups are read once per mode however many shipments follow, and
 * are no older than what had committed when the pricer was made (or than `seen`, the generations a
 * statement of the caller's read).
 */
export function truckPricer(
  db: DbOrTx,
  tenantId: number,
  organisation: Pick<OrganisationRow, 'id' | 'path'>,
  seen?: Generations,
) {
  const byMode = new Map<Shipment['mode'], Promise<ModePricing>>();
  let generations: Promise<Generations | undefined> | undefined;
  const generationsRead = () => {
    generations ??= seen ? Promise.resolve(seen) : generationsNow(db, tenantId);
    return generations;
  };
  const load = async (mode: Shipment['mode']): Promise<ModePricing> => {
    const now = await generationsRead();
    const products = (await enabledProducts(db, tenantId, mode, now)).filter((p) =>
      productOpenTo(p, organisation.path),
    );
    const providers = [...new Set(products.map((p) => p.provider))];
    const [chains, raters] = await Promise.all([
      markupChains(
        db,
        tenantId,
        organisation.id,
        'truck',
        products.map((p) => p.code),
        now,
      ),
      Promise.all(
        providers.map(async (name) => {
          const provider = truckCarriers.find(name);
          const served = products.filter((p) => p.provider === name);
          return [name, provider ? await provider.rater(db, tenantId, served) : null] as const;
        }),
      ),
    ]);
    return { products, chains, raters: new Map(raters) };
  };
  const pricing = (mode: Shipment['mode']) => {
    let pending = byMode.get(mode);
    if (!pending) {
      pending = load(mode);
      byMode.set(mode, pending);
    }
    return pending;
  };

  /** Each product's result in product order, as soon as its provider answers. */
  async function* price(shipment: Shipment): AsyncGenerator<QuoteResult> {
    const { products, chains, raters } = await pricing(shipment.mode);
    const manual = manualReason(shipment);
    // Each result is the product's fresh fields with the outcome assigned on: V8 builds an object
    // from a spread and further fields slowly, and this runs for every product of every quote.
    const refused = (product: ProductRow, reason: QuoteRefusal): QuoteResult =>
      Object.assign(productOfQuote(product), { ok: false as const, reason });
    for (const product of products) {
      if (manual) {
        yield refused(product, manual);
        continue;
      }
      const rater = raters.get(product.provider);
      if (!rater) {
        yield refused(product, 'no_carrier');
        continue;
      }
      const rated = await rater.rate(product, shipment);
      yield rated.ok
        ? Object.assign(productOfQuote(product), {
            ok: true as const,
            breakdown: rated.cost,
            levels: priceLevels(rated.cost, chains.get(product.code) ?? []),
            cheapest: false,
            fastest: false,
          })
        : refused(product, rated.reason);
    }
  }

  /** Every product's result, the cheapest and fastest marked. */
  async function priceAll(shipment: Shipment): Promise<QuoteResult[]> {
    const results: QuoteResult[] = [];
    for await (const result of price(shipment)) results.push(result);
    return markBest(results);
  }

  /** Reads what pricing a mode needs now, so that pricing it later reads nothing (inside a transaction, say). */
  const prepare = async (mode: Shipment['mode']) => {
    await pricing(mode);
  };

  return { price, priceAll, prepare };
}

/**
 * A shipment's prices for one organisation as this process last worked them out, with what they were
 * worked out from (the tariffs, the markups and the organisation, as held in memory) and what was
 * made of them since: the stored text and its digest, and each kind of caller's view.
 */
interface HeldPrices extends PricesMade {
  /** Its key in `heldPrices`. */
  key: string;
  /** Held weakly: a tariff snapshot no longer cached is not kept alive by prices made from it. */
  sources: readonly WeakRef<object>[];
}

/** A shipment's prices and what was made of them. */
interface PricesMade {
  results: QuoteResult[];
  manualReason: ManualReason | null;
  stored: { text: Buffer; digest: string };
  views: Map<string, QuoteResultWire[]>;
}

/** The most recently priced shipments kept, over all tenants (each holds up to some 250 KB with its views). */
const heldPrices = new LRUCache<string, HeldPrices>({ max: 100 });

/**
 * What a quote's prices are worked out from, as held now; null when they may not be reused: inside a
 * transaction (which reads its own), or when a product is priced by a provider other than the tables,
 * whose answers may change without any write here.
 */
async function pricingSources(
  db: DbOrTx,
  tenantId: number,
  organisation: OrganisationRow,
  seen?: Generations,
): Promise<readonly object[] | null> {
  if (db instanceof PgTransaction) return null;
  const [tariffs, markups] = await Promise.all([
    tenantTariffs(db, tenantId, seen),
    heldMarkups(db, tenantId, organisation.id, 'truck', seen),
  ]);
  if (!markups || tariffs.products.some((p) => p.provider !== BUILTIN_PROVIDER)) return null;
  return [tariffs, markups, organisation];
}

const sameSources = (held: HeldPrices, now: readonly object[]) =>
  held.sources.length === now.length && held.sources.every((source, i) => source.deref() === now[i]);

/** Where the caller's view of a result differs: staff see all, an organisation its level and below. */
const viewOf = (caller: Caller) => (isStaff(caller) ? 'staff' : `organisation:${caller.organisationId}`);

/** The quotes this process last priced, by tenant and id: their organisation and their held prices. */
const pricedQuotes = new LRUCache<string, { organisationId: number; held: WeakRef<HeldPrices> }>({
  max: 20_000,
});

/**
 * Stores a quote's prices (or only its expiry, when it stores these); false when the quote was booked
 * or its shipment changed since it was read.
 */
async function storePrices(
  db: DbOrTx,
  quote: { tenantId: number; id: number; organisationId: number; resultsDigest: string | null },
  shipmentText: string,
  prices: PricesMade,
  expiresAt: Date,
): Promise<boolean> {
  const statements = pricingStatementsFor(db);
  const at = { tenantId: quote.tenantId, id: quote.id, expiresAt, manualReason: prices.manualReason };
  const { digest } = prices.stored;
  if (quote.resultsDigest === digest) {
    const refreshed = await statements.refresh.execute({
      ...at,
      organisationId: quote.organisationId,
      digest,
      liveOnly: false,
    });
    if (refreshed.length === 1) return true;
  }
  const stored = await statements.store.execute({
    ...at,
    shipment: shipmentText,
    results: prices.stored.text,
    digest,
  });
  return stored.length === 1;
}

/**
 * `quotation/rates`: prices a quote the caller may see, handing each result as the caller may see it
 * to `onResult` as soon as it is ready; stores them and answers them all, cheapest and fastest marked,
 * with the expiry, and whether they were streamed (prices worked out before are not: they are all
 * there at once). A shipment priced again with nothing it is priced from changed (a requote, the
 * same goods and lanes quoted again) takes the prices already worked out, and when the quote already
 * stores them, only its expiry is written: for a quote this process priced last, that one statement is
 * the whole call.
 */
export async function rateQuoteFor(
  db: DbOrTx,
  caller: Caller,
  id: number,
  ttlHours: number,
  onResult: (result: QuoteResultWire) => void | Promise<void>,
): Promise<{ results: QuoteResultWire[]; expiresAt: Date; streamed: boolean }> {
  const expiresAt = new Date(Date.now() + ttlHours * 3_600_000);
  const known = pricedQuotes.get(`${caller.tenantId}:${id}`);
  const again = known && (await pricedAgain(db, caller, id, known, expiresAt));
  if (again) return { results: again, expiresAt, streamed: false };

  // Neither read goes to the database once held: the quote's old prices are not read at all, and the
  // organisation comes from memory like the tariffs and markups it is priced with, each no older than
  // the generations the quote's read saw.
  const read = await quoteToPrice(db, caller.tenantId, id);
  const quote = read?.quote;
  const organisation =
    read && (await visibleOrganisationHeld(db, caller, read.quote.organisationId, read.seen));
  if (!read || !quote || !organisation) throw notFound();
  if (quote.status === 'booked') throw conflict('quote.booked');
  const shipmentText = JSON.stringify(quote.shipment);
  const key = `${quote.tenantId}:${organisation.id}:${shipmentText}`;
  const sources = await pricingSources(db, quote.tenantId, organisation, read.seen);
  const held = heldPrices.get(key);
  let prices: PricesMade;
  let shown: QuoteResultWire[];
  const streamed = !(held && sources && sameSources(held, sources));
  if (!streamed) {
    prices = held;
    shown = viewFor(held, caller);
  } else {
    ({ prices, shown } = await priceShipment(
      db,
      quote,
      shipmentText,
      organisation,
      caller,
      onResult,
      read.seen,
    ));
    prices.views.set(viewOf(caller), shown);
    if (sources)
      heldPrices.set(key, { ...prices, key, sources: sources.map((source) => new WeakRef(source)) });
  }
  if (!(await storePrices(db, quote, shipmentText, prices, expiresAt))) {
    const now = await quoteToPrice(db, quote.tenantId, quote.id);
    throw conflict(now?.quote.status === 'booked' ? 'quote.booked' : 'quote.notPriced');
  }
  const kept = heldPrices.peek(key);
  if (kept)
    pricedQuotes.set(`${quote.tenantId}:${quote.id}`, {
      organisationId: organisation.id,
      held: new WeakRef(kept),
    });
  return { results: shown, expiresAt, streamed };
}

/** What the caller sees of held prices, made once per kind of caller. */
function viewFor(held: PricesMade, caller: Caller): QuoteResultWire[] {
  const view = viewOf(caller);
  let shown = held.views.get(view);
  if (!shown) {
    shown = held.results.map((r) => resultForCaller(r, caller));
    held.views.set(view, shown);
  }
  return shown;
}

/**
 * A quote this process priced last, priced again in one statement: its shipment's prices are still
 * held from the tariffs and markups held now, the caller may see its organisation, and the quote still
 * stores that shipment at those prices (the digest covers both) and they are live: only its expiry is
 * written. The statement also reads the tenant's generations: what it holds that changed before the
 * statement ran is loaded again, the sources no longer match, and the call goes the whole way and
 * stores the new prices (the old ones were live until then). Null when any of that fails.
 */
async function pricedAgain(
  db: DbOrTx,
  caller: Caller,
  id: number,
  known: { organisationId: number; held: WeakRef<HeldPrices> },
  expiresAt: Date,
): Promise<QuoteResultWire[] | null> {
  const held = known.held.deref();
  if (!held || heldPrices.get(held.key) !== held) return null;
  const before = await visibleOrganisationHeld(db, caller, known.organisationId);
  const sourcesBefore = before && (await pricingSources(db, caller.tenantId, before));
  if (!sourcesBefore || !sameSources(held, sourcesBefore)) return null;
  const refreshed = await pricingStatementsFor(db).refresh.execute({
    tenantId: caller.tenantId,
    id,
    organisationId: known.organisationId,
    digest: held.stored.digest,
    expiresAt,
    manualReason: held.manualReason,
    liveOnly: true,
  });
  const [row] = refreshed;
  if (!row || refreshed.length !== 1) return null;
  const seen = parseGenerations(row.generations);
  const organisation = await visibleOrganisationHeld(db, caller, known.organisationId, seen);
  const sources = organisation && (await pricingSources(db, caller.tenantId, organisation, seen));
  return sources && sameSources(held, sources) ? viewFor(held, caller) : null;
}

/**
 * Prices a quote's shipment with every product open to its organisation, handing each result as the
 * caller may see it to `onResult` as soon as it is ready.
 */
async function priceShipment(
  db: DbOrTx,
  quote: QuoteToPrice,
  shipmentText: string,
  organisation: OrganisationRow,
  caller: Caller,
  onResult: (result: QuoteResultWire) => void | Promise<void>,
  seen: Generations,
): Promise<{ prices: PricesMade; shown: QuoteResultWire[] }> {
  const { shipment } = quote;
  const results: QuoteResult[] = [];
  const streamed: QuoteResultWire[] = [];
  for await (const result of truckPricer(db, quote.tenantId, organisation, seen).price(shipment)) {
    results.push(result);
    const wire = resultForCaller(result, caller);
    streamed.push(wire);
    await onResult(wire);
  }
  const best = markBest(results);
  const resultsText = JSON.stringify(best);
  const text = Buffer.from(resultsText);
  // Marking the best changes two flags: the answer reuses each result as streamed, the very object
  // where neither changed (so its streamed text serves again), a copy with them set where one did.
  const shown = best.map((r, i) => {
    const wire = streamed[i] as QuoteResultWire;
    if (!r.ok || !wire.ok || (r.cheapest === wire.cheapest && r.fastest === wire.fastest)) return wire;
    return { ...wire, cheapest: r.cheapest, fastest: r.fastest };
  });
  return {
    prices: {
      results: best,
      manualReason: best.some((r) => r.ok) ? null : (manualReason(shipment) ?? 'no_rate'),
      // Of the shipment and its prices together: a quote storing these prices for another shipment
      // (one changed, then priced the same) is no quote of this shipment.
      stored: {
        text,
        digest: createHash('sha256').update(`${shipmentText}\n`).update(resultsText).digest('base64'),
      },
      views: new Map(),
    },
    shown,
  };
}

/**
 * A result as the caller may see it: staff see every level and the rating detail; an organisation
 * sees its own price and those below it, and of the rating only the weights and classes, never the
 * operator's rates.
 */
export function resultForCaller(result: QuoteResult, caller: Caller): QuoteResultWire {
  if (!result.ok || isStaff(caller)) return resultOnWire(result, null, true);
  return resultOnWire(result, visibleLevels(result.levels, caller.organisationId), false);
}

/** A booked quote is closed; an open one may be priced again, and booked while a price is live. */
export function quoteActions(quote: Pick<QuoteRow, 'status' | 'expiresAt' | 'results'>): QuoteAction[] {
  if (quote.status === 'booked') return [];
  return !quoteExpired(quote) && quote.results.some((r) => r.ok) ? ['book', 'requote'] : ['requote'];
}

export function quoteForCaller(quote: QuoteRow, caller: Caller) {
  const { tenantId: _t, results, resultsDigest: _d, ...rest } = quote;
  return {
    ...rest,
    expired: quoteExpired(quote),
    results: results.map((r) => resultForCaller(r, caller)),
    actions: quoteActions(quote),
  };
}

export interface QuoteFilter {
  keyword?: string;
  status?: 'open' | 'booked' | 'expired';
  mode?: 'LTL' | 'FTL';
  from?: Date;
  to?: Date;
}

export async function listQuotes(
  db: DbOrTx,
  caller: Caller,
  filter: QuoteFilter,
  page: number,
  limit: number,
) {
  const scope = await organisationScope(db, caller);
  const now = new Date();
  const status: SQL | undefined =
    filter.status === 'expired'
      ? and(eq(truckQuotes.status, 'open'), lt(truckQuotes.expiresAt, now))
      : filter.status === 'open'
        ? and(
            eq(truckQuotes.status, 'open'),
            or(gte(truckQuotes.expiresAt, now), isNull(truckQuotes.expiresAt)),
          )
        : filter.status
          ? eq(truckQuotes.status, filter.status)
          : undefined;
  const condition = and(
    eq(truckQuotes.tenantId, caller.tenantId),
    inArray(truckQuotes.organisationId, visibleOrganisationIds(db, scope)),
    filter.keyword ? ilike(truckQuotes.quoteNo, `%${filter.keyword}%`) : undefined,
    filter.mode ? sql`${truckQuotes.shipment}->>'mode' = ${filter.mode}` : undefined,
    filter.from ? gte(truckQuotes.createdAt, filter.from) : undefined,
    filter.to ? lt(truckQuotes.createdAt, filter.to) : undefined,
    status,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(truckQuotes)
      .where(condition)
      .orderBy(desc(truckQuotes.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(truckQuotes).where(condition),
  ]);
  return { rows, total: total?.n ?? 0 };
}

/** Marks a quote booked once; false when another booking took it first. */
export async function markQuoteBooked(db: DbOrTx, tenantId: number, id: number): Promise<boolean> {
  const rows = await db
    .update(truckQuotes)
    .set({ status: 'booked' })
    .where(and(eq(truckQuotes.tenantId, tenantId), eq(truckQuotes.id, id), eq(truckQuotes.status, 'open')))
    .returning({ id: truckQuotes.id });
  return rows.length === 1;
}
