import { BUILTIN_PROVIDER, type CarrierFailure } from '@freight/contracts/carriers';
import type { DbOrTx } from '../../db/client.ts';

/**
 * A carrier provider (ARCHITECTURE sections 7 and 8): whoever prices, books, tracks and cancels the
 * shipments of the products or channels registered to it. The tenant's own tables are the built-in
 * provider of each line; a carrier's API would be another provider with no change to quoting,
 * price levels or booking, which only ever talk to this interface.
 *
 * A provider answers the operator's cost. Markups down the organisation tree (price levels), the
 * cheapest and fastest marks and the stored quote are the same for every provider and live with the
 * quotes, not here.
 */
export interface CarrierProvider<TProduct, TShipment, TCost, TRefusal extends string> {
  /** The name products and channels record in their `provider` column. */
  readonly name: string;
  /**
   * Reads once what pricing these products needs (tariffs, credentials) and returns a rater that
   * then prices any number of shipments: one quote, or every row of a batch file.
   */
  rater(
    db: DbOrTx,
    tenantId: number,
    products: readonly TProduct[],
  ): Promise<CarrierRater<TProduct, TShipment, TCost, TRefusal>>;
  /**
   * Hands a booked order to the carrier; the answer is the carrier's reference, null when none is kept.
   * It may be asked again for the same order number after a failure that reached the carrier (a batch's
   * handoff retries): the number is the booking's idempotency key.
   */
  book(db: DbOrTx, booking: CarrierBooking<TShipment>): Promise<{ reference: string | null }>;
  /** The carrier's own events of a booked shipment, beside those the tenant records on the order. */
  track(db: DbOrTx, booking: CarrierBookingRef): Promise<CarrierEvent[]>;
  /** Tells the carrier a booked shipment is off, before the order is cancelled or rejected. */
  cancel(db: DbOrTx, booking: CarrierBookingRef): Promise<void>;
}

export interface CarrierRater<TProduct, TShipment, TCost, TRefusal extends string> {
  rate(product: TProduct, shipment: TShipment): Promise<CarrierRate<TCost, TRefusal>>;
}

/** The operator's cost of a shipment with one product, or why the product cannot carry it. */
export type CarrierRate<TCost, TRefusal extends string> =
  | { ok: true; cost: TCost }
  /** `failure`: why a carrier's API did not price it (unreachable, too slow, refused...). */
  | { ok: false; reason: TRefusal; failure?: CarrierFailure };

export interface CarrierBooking<TShipment> {
  tenantId: number;
  orderNo: string;
  /** Null for a price staff gave by hand (a manual quotation), which no product carries. */
  productId: number | null;
  shipment: TShipment;
}

export interface CarrierBookingRef {
  tenantId: number;
  orderNo: string;
  productId: number | null;
  /** What `book` answered. */
  reference: string | null;
}

export interface CarrierEvent {
  at: Date;
  /** A short code of what happened (`picked_up`, `delivered`...), as the carrier names it. */
  code: string;
  note: string;
}

/** A provider name that no provider of the line answers to. */
export class UnknownCarrierError extends Error {
  constructor(
    readonly line: string,
    readonly provider: string,
  ) {
    super(`no ${line} carrier provider named "${provider}"`);
  }
}

/** The name every line's built-in provider, the tenant's own tables, answers to. */
export { BUILTIN_PROVIDER } from '@freight/contracts/carriers';

/** The providers of one business line, by name. */
export interface CarrierRegistry<TProvider extends { readonly name: string }> {
  readonly line: string;
  /** The provider of this name; throws `UnknownCarrierError` when the line has none. */
  get(name: string): TProvider;
  /** The provider of this name, or null. */
  find(name: string): TProvider | null;
  /** The provider serving a product or channel, by the name it records. */
  forProduct(product: { provider: string }): TProvider;
  names(): string[];
  /**
   * Adds a provider (a carrier's folder registers its own at start); answers the call that takes it
   * out again. A name taken already, the built-in one included, is refused.
   */
  register(provider: TProvider): () => void;
}

export function carrierRegistry<TProvider extends { readonly name: string }>(
  line: string,
  providers: readonly TProvider[],
): CarrierRegistry<TProvider> {
  const byName = new Map<string, TProvider>();
  for (const provider of providers) {
    if (byName.has(provider.name)) throw new Error(`two ${line} carrier providers named "${provider.name}"`);
    byName.set(provider.name, provider);
  }
  if (!byName.has(BUILTIN_PROVIDER)) throw new Error(`the ${line} line has no built-in carrier provider`);
  const get = (name: string) => {
    const provider = byName.get(name);
    if (!provider) throw new UnknownCarrierError(line, name);
    return provider;
  };
  return {
    line,
    get,
    find: (name) => byName.get(name) ?? null,
    forProduct: (product) => get(product.provider),
    names: () => [...byName.keys()],
    register(provider) {
      if (byName.has(provider.name))
        throw new Error(`two ${line} carrier providers named "${provider.name}"`);
      byName.set(provider.name, provider);
      return () => {
        if (byName.get(provider.name) === provider) byName.delete(provider.name);
      };
    },
  };
}
