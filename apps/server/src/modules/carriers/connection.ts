import type { CarrierFailure, CarrierKind } from '@freight/contracts/carriers';

/**
 * How the portal reaches one carrier account: where its calls go, what it signs in with (decrypted,
 * held only for the call) and how long a call may take. Each carrier's client (`ups/`, `karrio/`)
 * takes one of these and never reads the database: no network call is made inside a transaction.
 */
export interface CarrierConnection {
  /** The account's id, for what a client keeps between calls (an OAuth token). */
  accountId: number;
  tenantId: number;
  /** Without a trailing slash. */
  baseUrl: string;
  credentials: Record<string, string>;
  timeoutMs: number;
  /**
   * Whether the call may reach loopback or private addresses (a self-hosted Karrio on the operator's
   * network); checked where the socket connects, so a name that resolves differently later cannot.
   */
  allowPrivate: boolean;
}

/** What a carrier answered to a connection test, or why it failed. */
export type ConnectionCheck =
  | { ok: true }
  | {
      ok: false;
      failure: CarrierFailure;
      /** The carrier's own words (or the network's), for staff; never holds a credential. */
      detail: string;
    };

/** A failed call to a carrier, with the reason the reader is told and the carrier's own words. */
export class CarrierCallError extends Error {
  constructor(
    readonly failure: CarrierFailure,
    readonly detail: string,
    /** Whether trying again later may succeed (a timeout, a 5xx), as opposed to a refusal. */
    readonly retryable: boolean,
  ) {
    super(`${failure}: ${detail}`);
  }
}

/** One kind of carrier account: its client, behind the same few calls for every carrier. */
export interface CarrierClient {
  readonly kind: CarrierKind;
  /** Signs in (and, where the API has one, makes the cheapest read) to tell whether the account works. */
  testConnection(connection: CarrierConnection): Promise<ConnectionCheck>;
}
