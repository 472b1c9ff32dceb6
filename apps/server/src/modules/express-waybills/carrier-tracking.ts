import type { Language } from '@freight/contracts/api';
import type { CarrierFailure } from '@freight/contracts/carriers';
import {
  CARRIER_TRACKED_STATUSES,
  type TrackingCode,
  type WaybillStatus,
} from '@freight/contracts/express-waybills';
import { storableText } from '@freight/contracts/fields';
import { translate } from '@freight/contracts/messages';
import { and, asc, eq, gt, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Database, Db } from '../../db/client.ts';
import { runAsSystem, runAsTenant } from '../../db/tenant-scope.ts';
import type { CarrierSettings } from '../carriers/service.ts';
import {
  type CarrierTrackCode,
  type CarrierTracking,
  TRACK_CALLS_PER_ACCOUNT,
  trackWithCarrier,
} from '../carriers/tracking.ts';
import { expressWaybills } from './schema.ts';
import { type Caller, visibleWaybill } from './service.ts';
import { type CarrierScan, recordCarrierScans } from './tracking.ts';

/**
 * Tracking from the carrier: the express waybills booked through a carrier account (UPS, Karrio) whose
 * label is bought are asked after, on a timer, and the carrier's events recorded as scans with source
 * `carrier`, through the path staff scans take (tracking.ts `recordCarrierScans`).
 */

/** Accounts read per query while a run walks every tenant's. */
const ACCOUNTS_PER_BATCH = 100;
/** Accounts asked at once: a slow carrier holds up its own parcels, not every other account's. */
const ACCOUNTS_AT_ONCE = 4;
/** The advisory lock a run holds on PostgreSQL, named so that `pg_locks` tells what it is. */
export const CARRIER_TRACKING_LOCK = 'carrier-tracking';

/**
 * The portal's scan for each of the carrier's terms. A label made is no scan (the portal made it); a
 * parcel going back to its sender is an exception here, which staff look into. `unknown` has no scan
 * of its own: see `carrierScans`.
 */
const SCAN_OF: Record<CarrierTrackCode, TrackingCode | null> = {
  label_created: null,
  picked_up: 'picked_up',
  in_transit: 'in_transit',
  out_for_delivery: 'out_for_delivery',
  delivered: 'delivered',
  exception: 'exception',
  returned: 'exception',
  unknown: null,
};

/**
 * The scans a carrier's tracking reports. An event the carrier gave no kind of its own (Karrio's all,
 * the odd UPS one) takes the parcel's status when it is the newest, which is the status it brought
 * about, and is `in_transit` when older and the parcel has moved at all; while the parcel waits for
 * pickup such events are not scans yet. Those worked-out kinds are recorded once per moment, so an
 * event seen again after a newer one keeps the kind it was first given.
 */
export function carrierScans(tracking: CarrierTracking): CarrierScan[] {
  const status = SCAN_OF[tracking.status];
  const newest = tracking.events.at(-1);
  return tracking.events.flatMap((event) => {
    const derived = event.code === 'unknown';
    const code = derived ? (event === newest ? status : status && 'in_transit') : SCAN_OF[event.code];
    if (!code) return [];
    const words = [event.description.trim(), event.carrierCode ? `(${event.carrierCode})` : '']
      .filter(Boolean)
      .join(' ');
    return [
      {
        code,
        at: event.at,
        location: storableText(event.location ?? '', 100),
        note: storableText(words, 500),
        ...(derived ? { oncePerMoment: true } : {}),
      },
    ];
  });
}

type WaybillRef = { tenantId: number; id: number; waybillNo: string; trackingNo: string };

/** Records a carrier's tracking of one waybill; answers the scans added. */
export async function recordCarrierTracking(db: Db, waybill: WaybillRef, tracking: CarrierTracking) {
  const { added } = await recordCarrierScans(db, waybill, carrierScans(tracking));
  return added;
}

/** Carrier waybills still moving, their label bought: the partial index `express_waybills_carrier_open` serves it. */
const stillMoving = (tenantId?: number, accountId?: number) =>
  and(
    tenantId === undefined ? undefined : eq(expressWaybills.tenantId, tenantId),
    inArray(expressWaybills.status, [...CARRIER_TRACKED_STATUSES]),
    isNotNull(expressWaybills.carrierAccountId),
    accountId === undefined ? undefined : eq(expressWaybills.carrierAccountId, accountId),
    isNotNull(expressWaybills.labelFile),
  );

/** A waybill that tracks through the account with this tracking number, still moving; null when none. */
export async function openCarrierWaybill(db: Db, tenantId: number, accountId: number, trackingNo: string) {
  const [row] = await db
    .select({
      tenantId: expressWaybills.tenantId,
      id: expressWaybills.id,
      waybillNo: expressWaybills.waybillNo,
      trackingNo: expressWaybills.trackingNo,
    })
    .from(expressWaybills)
    .where(and(stillMoving(tenantId, accountId), eq(expressWaybills.trackingNo, trackingNo)))
    .limit(1);
  return row ?? null;
}

export interface CarrierTrackingRun {
  /** Accounts asked. */
  accounts: number;
  /** Waybills whose carrier answered. */
  tracked: number;
  /** Waybills asked after whose carrier failed, or that were not asked this run. */
  failed: number;
  /** Scans recorded. */
  recorded: number;
}

type Log = {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
};

export interface CarrierTrackingOptions {
  signal?: AbortSignal;
  log?: Log;
}

/**
 * Where each account's next run starts: an account with more parcels on their way than it is asked
 * about in a run goes on after the last one asked, round to the first, so none waits for ever. Kept by
 * database handle and in the process only: a restart starts from the first again.
 */
const cursors = new WeakMap<Db, Map<string, number>>();

/** Databases a run is going on in this process: a second app on the same handle skips (PGlite has one session). */
const running = new WeakSet<Db>();

/**
 * One run of the carrier tracking poll over every tenant's accounts, unless another is going on: in this
 * process on the same database, or in any process on PostgreSQL, where the run holds a
 * transaction-scoped advisory lock on a connection of its own (housekeeping's way, which writes nothing
 * there) while its reads and writes go through others and no call to a carrier waits inside a
 * transaction. Answers what it did, or null when it skipped.
 */
export function runCarrierTracking(
  database: Database,
  settings: CarrierSettings,
  options: CarrierTrackingOptions = {},
): Promise<CarrierTrackingRun | null> {
  // Finding the accounts spans every tenant: system work. Each account's work runs as its tenant.
  return runAsSystem(async () => {
    const { db } = database;
    if (running.has(db)) return null;
    running.add(db);
    try {
      if (database.kind === 'pglite') return await pass(db, settings, options);
      return await db.transaction(async (tx) => {
        const result = await tx.execute(
          sql`select pg_try_advisory_xact_lock(hashtextextended(${CARRIER_TRACKING_LOCK}, 0)) as locked`,
        );
        const [lock] = ((result as unknown as { rows?: unknown[] }).rows ?? result) as { locked: boolean }[];
        if (!lock?.locked) return null;
        return pass(db, settings, options);
      });
    } finally {
      running.delete(db);
    }
  });
}

async function pass(db: Db, settings: CarrierSettings, options: CarrierTrackingOptions) {
  const run: CarrierTrackingRun = { accounts: 0, tracked: 0, failed: 0, recorded: 0 };
  let after: { tenantId: number; accountId: number } | null = null;
  for (;;) {
    if (options.signal?.aborted) break;
    const accounts: { tenantId: number; accountId: number }[] = await db
      .selectDistinct({
        tenantId: expressWaybills.tenantId,
        accountId: sql<number>`${expressWaybills.carrierAccountId}`.mapWith(Number),
      })
      .from(expressWaybills)
      .where(
        and(
          stillMoving(),
          after
            ? sql`(${expressWaybills.tenantId}, ${expressWaybills.carrierAccountId}) > (${after.tenantId}, ${after.accountId})`
            : undefined,
        ),
      )
      .orderBy(asc(expressWaybills.tenantId), asc(expressWaybills.carrierAccountId))
      .limit(ACCOUNTS_PER_BATCH);
    let next = 0;
    const worker = async () => {
      while (next < accounts.length && !options.signal?.aborted) {
        const account = accounts[next++] as (typeof accounts)[number];
        try {
          await runAsTenant(account.tenantId, () => trackAccount(db, settings, account, run, options));
        } catch (error) {
          // One account's trouble (a bug, the database away for a moment) leaves the others tracked.
          options.log?.error({ err: error, ...account }, 'carrier tracking of an account failed');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(ACCOUNTS_AT_ONCE, accounts.length) }, worker));
    if (accounts.length < ACCOUNTS_PER_BATCH) break;
    after = accounts.at(-1) ?? null;
  }
  return run;
}

async function trackAccount(
  db: Db,
  settings: CarrierSettings,
  account: { tenantId: number; accountId: number },
  run: CarrierTrackingRun,
  options: CarrierTrackingOptions,
) {
  const { tenantId, accountId } = account;
  const byAccount = cursors.get(db) ?? new Map<string, number>();
  cursors.set(db, byAccount);
  const key = `${tenantId}:${accountId}`;
  const cursor = byAccount.get(key) ?? 0;
  const page = (from: ReturnType<typeof gt> | undefined, limit: number) =>
    db
      .select({
        tenantId: expressWaybills.tenantId,
        id: expressWaybills.id,
        waybillNo: expressWaybills.waybillNo,
        trackingNo: expressWaybills.trackingNo,
        carrierService: expressWaybills.carrierService,
      })
      .from(expressWaybills)
      .where(and(stillMoving(tenantId, accountId), from))
      .orderBy(asc(expressWaybills.id))
      .limit(limit);
  const waybills = await page(gt(expressWaybills.id, cursor), TRACK_CALLS_PER_ACCOUNT);
  if (waybills.length < TRACK_CALLS_PER_ACCOUNT && cursor > 0)
    waybills.push(
      ...(await page(lte(expressWaybills.id, cursor), TRACK_CALLS_PER_ACCOUNT - waybills.length)),
    );
  if (waybills.length === 0) return;
  run.accounts++;

  const results = await trackWithCarrier(
    db,
    settings,
    tenantId,
    accountId,
    waybills.map((w) => ({ trackingNumber: w.trackingNo, carrierService: w.carrierService })),
    { signal: options.signal },
  );
  // Failures are told once per reason, not once per parcel: a carrier that is down fails them all.
  const failures = new Map<string, { failure: string; detail: string; waybillNos: string[] }>();
  let lastAsked = cursor;
  for (const [index, result] of results.entries()) {
    const waybill = waybills[index] as (typeof waybills)[number];
    if (result.ok || result.asked) lastAsked = waybill.id;
    if (!result.ok) {
      run.failed++;
      const reason = `${result.failure}\n${result.detail}`;
      const entry = failures.get(reason) ?? {
        failure: result.failure,
        detail: result.detail,
        waybillNos: [],
      };
      entry.waybillNos.push(waybill.waybillNo);
      failures.set(reason, entry);
      continue;
    }
    run.tracked++;
    run.recorded += await recordCarrierTracking(db, waybill, result.tracking);
  }
  byAccount.set(key, lastAsked);
  for (const { failure, detail, waybillNos } of failures.values())
    options.log?.warn(
      {
        tenantId,
        accountId,
        failure,
        detail: detail.slice(0, 500),
        waybills: waybillNos.length,
        first: waybillNos[0],
      },
      'carrier tracking failed; the waybills keep their status',
    );
}

/** A waybill asked about by "track now" is not asked again this soon: the carriers limit their calls. */
export const TRACK_NOW_EVERY_MS = 60_000;
const askedNow = new WeakMap<Db, Map<string, number>>();

/**
 * Asks the carrier about one waybill now, as the poll would, for someone waiting on it: its new scans
 * are recorded and moved on the status machine. A waybill asked less than a minute ago, one the
 * carrier does not serve, or one no longer moving is not asked (`asked: false`); a carrier that fails
 * says why (`failure`), and the waybill keeps its status.
 */
export async function trackWaybillNow(
  db: Db,
  settings: CarrierSettings,
  waybill: WaybillRef & {
    carrierAccountId: number | null;
    carrierService: string | null;
    status: WaybillStatus;
    labelFile: string | null;
  },
): Promise<{ asked: boolean; recorded: number; failure: CarrierFailure | null }> {
  const none = { asked: false, recorded: 0, failure: null };
  if (waybill.carrierAccountId === null || !waybill.labelFile || !waybill.trackingNo) return none;
  if (!CARRIER_TRACKED_STATUSES.includes(waybill.status)) return none;
  const byWaybill = askedNow.get(db) ?? new Map<string, number>();
  askedNow.set(db, byWaybill);
  const key = `${waybill.tenantId}:${waybill.id}`;
  if (Date.now() - (byWaybill.get(key) ?? 0) < TRACK_NOW_EVERY_MS) return none;
  byWaybill.set(key, Date.now());
  const [result] = await trackWithCarrier(db, settings, waybill.tenantId, waybill.carrierAccountId, [
    { trackingNumber: waybill.trackingNo, carrierService: waybill.carrierService },
  ]);
  if (!result?.ok) return { asked: true, recorded: 0, failure: result?.failure ?? 'unavailable' };
  return { asked: true, recorded: await recordCarrierTracking(db, waybill, result.tracking), failure: null };
}

/** `order/trackNow`: a waybill the caller may see, asked about now, with what happened in words. */
export async function trackVisibleWaybillNow(
  db: Db,
  settings: CarrierSettings,
  caller: Caller,
  id: number,
  language: Language,
) {
  const outcome = await trackWaybillNow(db, settings, await visibleWaybill(db, caller, id));
  const message = outcome.failure
    ? translate(language, `carrier.${outcome.failure}`)
    : outcome.asked
      ? translate(language, 'expressWaybill.trackedNow', { count: outcome.recorded })
      : translate(language, 'expressWaybill.trackedRecently');
  return { ...outcome, message };
}
