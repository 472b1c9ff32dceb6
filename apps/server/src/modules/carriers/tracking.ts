import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { CarrierFailure, CarrierKind } from '@freight/contracts/carriers';
import type { DbOrTx } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { CarrierCallError, type CarrierConnection } from './connection.ts';
import { karrioTrack, karrioTracker, karrioTrackingOf } from './karrio/track.ts';
import type { CarrierTracking } from './parcel.ts';
import { type CredentialKey, type CredentialKeys, CredentialsUnreadableError } from './secrets.ts';
import { type CarrierSettings, carrierConnection, karrioWebhookTrust } from './service.ts';
import { upsTrack } from './ups/track.ts';

export type { CarrierTrackCode, CarrierTrackEvent, CarrierTracking } from './parcel.ts';

/**
 * The most tracking calls one account gets in one run of a caller (the express line's poll). UPS's
 * Track API and Karrio's trackers both take one number per call, and UPS counts an app's calls against
 * a daily quota and throttles bursts: fifty a run, a run every quarter hour, stays far below either.
 * Numbers past it are answered `asked: false` and wait for the next run.
 */
export const TRACK_CALLS_PER_ACCOUNT = 50;

/**
 * Failures that say the account, not the parcel, is in trouble (its credentials, the carrier's service
 * down or slow): the numbers after one are not asked in the same run, so a carrier that is down costs
 * one time limit, not fifty.
 */
const ACCOUNT_WIDE: readonly CarrierFailure[] = ['credentials', 'unreachable', 'timeout', 'unavailable'];

/** A parcel to track: its number, and for Karrio the waybill's `carrier:service` naming the carrier. */
export interface TrackRequest {
  trackingNumber: string;
  carrierService?: string | null;
}

export type TrackResult =
  | { trackingNumber: string; ok: true; tracking: CarrierTracking }
  | {
      trackingNumber: string;
      ok: false;
      failure: CarrierFailure;
      /** The carrier's own words (or ours), for staff and the log; never holds a credential. */
      detail: string;
      retryable: boolean;
      /** False when no call was made for the number (over the limit, or after an account-wide failure). */
      asked: boolean;
    };

type Failure = Extract<TrackResult, { ok: false }>;
type Opened = { kind: CarrierKind; connection: CarrierConnection };

/**
 * What a tenant's carrier account says of each parcel, in the order asked: its tracking, or why not.
 * The account is read first and the calls go out after, one number at a time, with no transaction
 * open; every failure is answered, never thrown, so one parcel's trouble stays its own.
 */
export async function trackWithCarrier(
  db: DbOrTx,
  settings: CarrierSettings,
  tenantId: number,
  accountId: number,
  parcels: readonly (string | TrackRequest)[],
  options: { signal?: AbortSignal } = {},
): Promise<TrackResult[]> {
  const requests = parcels.map((p) => (typeof p === 'string' ? { trackingNumber: p } : p));
  const failAll = (failure: CarrierFailure, detail: string, retryable: boolean): TrackResult[] =>
    requests.map((r) => ({
      trackingNumber: r.trackingNumber,
      ok: false,
      failure,
      detail,
      retryable,
      asked: false,
    }));
  let opened: Opened;
  try {
    opened = await carrierConnection(db, settings, tenantId, accountId);
  } catch (error) {
    if (error instanceof CredentialsUnreadableError)
      return failAll('credentials', "the stored credentials do not open with this server's key", false);
    if (error instanceof AppError) return failAll('unavailable', 'the carrier account is gone', false);
    throw error;
  }
  const results: TrackResult[] = [];
  let stop: Failure | null = null;
  for (const [index, request] of requests.entries()) {
    const { trackingNumber } = request;
    const notAsked = (failure: CarrierFailure, detail: string, retryable: boolean): Failure => ({
      trackingNumber,
      ok: false,
      failure,
      detail,
      retryable,
      asked: false,
    });
    if (stop) results.push({ ...stop, trackingNumber, asked: false });
    else if (index >= TRACK_CALLS_PER_ACCOUNT)
      results.push(
        notAsked('unavailable', `over the ${TRACK_CALLS_PER_ACCOUNT} calls an account takes in a run`, true),
      );
    else if (options.signal?.aborted) results.push(notAsked('unavailable', 'the run was stopped', true));
    else {
      const result = await trackOne(opened, request);
      results.push(result);
      if (!result.ok && ACCOUNT_WIDE.includes(result.failure)) stop = result;
    }
  }
  return results;
}

async function trackOne(opened: Opened, request: TrackRequest): Promise<TrackResult> {
  const { trackingNumber } = request;
  try {
    if (opened.kind === 'ups')
      return { trackingNumber, ok: true, tracking: await upsTrack(opened.connection, trackingNumber) };
    // Karrio tracks through the carrier it bought from, named before the `:` of the service.
    const service = request.carrierService ?? '';
    const carrierName = service.includes(':') ? service.slice(0, service.indexOf(':')) : '';
    if (!carrierName)
      return {
        trackingNumber,
        ok: false,
        failure: 'refused',
        detail: `"${service}" names no Karrio carrier (carrier:service)`,
        retryable: false,
        asked: false,
      };
    return {
      trackingNumber,
      ok: true,
      tracking: await karrioTrack(opened.connection, trackingNumber, carrierName),
    };
  } catch (error) {
    if (error instanceof CarrierCallError)
      return {
        trackingNumber,
        ok: false,
        failure: error.failure,
        detail: error.detail,
        retryable: error.retryable,
        asked: true,
      };
    throw error;
  }
}

/* ----- Karrio's webhooks ----- */

/** The header a webhook's signature comes in: `sha256=` and the hex HMAC-SHA256 of the raw body. */
export const KARRIO_SIGNATURE_HEADER = 'x-event-signature';

/** Where a Karrio account's webhook posts, on the tenant's own host (the express line serves it). */
export const karrioWebhookPath = (accountId: number) => `/api/carriers/karrio/webhook/${accountId}`;

/**
 * The secret one Karrio account's webhooks are signed with: derived (HKDF-SHA256) from the server's
 * credentials key and the tenant and account, so nothing new is stored and no two accounts share one;
 * the credentials key itself never signs anything. A new credentials key makes a new secret.
 */
function secretWith(key: CredentialKey, tenantId: number, accountId: number): Buffer {
  const info = `freight-portal karrio webhook v1 ${tenantId}:${accountId}`;
  return Buffer.from(hkdfSync('sha256', key.bytes, Buffer.alloc(0), info, 32));
}

/** The webhook secret staff give whatever signs for the account, or null when the server has no key. */
export function karrioWebhookSecret(
  keys: CredentialKeys,
  tenantId: number,
  accountId: number,
): string | null {
  return keys.current ? `whsec_${secretWith(keys.current, tenantId, accountId).toString('base64url')}` : null;
}

/** The signature of a body with a secret, as the header carries it. */
export function karrioWebhookSignature(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The header a stock Karrio server puts its webhook's secret in, with every event. */
export const KARRIO_SECRET_HEADER = 'x-event-id';

/** What a webhook request carries to prove it comes from the account's Karrio. */
export interface KarrioWebhookProof {
  /** `sha256=<hex>`: the HMAC of the body with the derived secret (a relay that signs). */
  signature?: string;
  /** The secret of the webhook the portal registered at Karrio, as Karrio sends it. */
  eventId?: string;
}

/**
 * Whether a webhook body comes from the tenant's Karrio account. Either proof will do, each compared in
 * constant time: the secret of the webhook the portal registered at Karrio (compared by its hash, the
 * secret itself not being kept), or the HMAC of the exact bytes received with the account's derived
 * secret (by the current key, or an older one while a rotation finishes). Anything else (no proof,
 * another account's, an account that is not Karrio's or does not exist) is not.
 */
export async function karrioWebhookSigned(
  db: DbOrTx,
  settings: CarrierSettings,
  tenantId: number,
  accountId: number,
  body: Buffer,
  proof: KarrioWebhookProof,
): Promise<boolean> {
  const sent = /^(?:sha256=)?([0-9a-f]{64})$/i.exec(proof.signature?.trim() ?? '')?.[1];
  const eventId = proof.eventId?.trim();
  if (!sent && !eventId) return false;
  const trust = await karrioWebhookTrust(db, tenantId, accountId);
  if (!trust) return false;
  if (eventId && trust.secretHash) {
    const given = createHash('sha256').update(eventId).digest();
    if (timingSafeEqual(given, Buffer.from(trust.secretHash, 'hex'))) return true;
  }
  if (!sent) return false;
  const given = Buffer.from(sent.toLowerCase(), 'hex');
  const keys = [settings.keys.current, ...settings.keys.previous].filter((k): k is CredentialKey => !!k);
  return keys.some((key) => {
    const secret = `whsec_${secretWith(key, tenantId, accountId).toString('base64url')}`;
    const expected = createHmac('sha256', secret).update(body).digest();
    return timingSafeEqual(expected, given);
  });
}

/** Karrio's events about its trackers (`tracker_updated`; `tracker.updated` in older releases). */
const TRACKER_EVENTS = new Set(['tracker_created', 'tracker_updated', 'tracker.created', 'tracker.updated']);

/**
 * A verified webhook body's tracker in the portal's terms; `tracking` is null for an event that is
 * not about a tracker (Karrio sends every event a webhook subscribes to), and `malformed` says what is
 * wrong with a tracker event that is not shaped as Karrio's document says.
 */
export function karrioWebhookTracking(
  payload: unknown,
): { tracking: CarrierTracking | null } | { malformed: string } {
  const event = (payload as { event?: unknown } | null)?.event;
  if (typeof event !== 'string' || !TRACKER_EVENTS.has(event)) return { tracking: null };
  const parsed = karrioTracker.safeParse((payload as { data?: unknown }).data);
  if (!parsed.success) return { malformed: `${event} without a tracker` };
  try {
    return { tracking: karrioTrackingOf(parsed.data) };
  } catch (error) {
    // An event's date that is no date.
    if (error instanceof CarrierCallError) return { malformed: error.detail };
    throw error;
  }
}
