import { z } from 'zod';
import { CarrierCallError, type CarrierConnection } from '../connection.ts';
import type { CarrierTrackCode, CarrierTrackEvent, CarrierTracking } from '../parcel.ts';
import { type UpsClient, upsClient } from './client.ts';

/**
 * UPS's Track API: one package's activity by its tracking number. Requests follow
 * test/fixtures/carriers/ups/Tracking.yaml, which the contract tests play back.
 */

const TRACK_PATH = '/api/track/v1/details';

/** UPS's activity status types; the rest (MV, a voided manifest, and any new one) are unknown. */
const UPS_STATUS_TYPES: Record<string, CarrierTrackCode> = {
  M: 'label_created',
  P: 'picked_up',
  I: 'in_transit',
  O: 'out_for_delivery',
  D: 'delivered',
  X: 'exception',
  RS: 'returned',
};

/* ----- the answer ----- */

const upsStatus = z.object({
  type: z.string().optional(),
  code: z.string().optional(),
  statusCode: z.string().optional(),
  description: z.string().optional(),
});

const upsActivity = z.object({
  date: z.string(),
  time: z.string(),
  gmtDate: z.string().optional(),
  gmtTime: z.string().optional(),
  gmtOffset: z.string().optional(),
  location: z
    .object({
      address: z
        .object({
          city: z.string().optional(),
          stateProvince: z.string().optional(),
          countryCode: z.string().optional(),
          country: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
  status: upsStatus.optional(),
});
type UpsActivity = z.infer<typeof upsActivity>;

const upsPackage = z.object({
  trackingNumber: z.string().optional(),
  currentStatus: upsStatus.optional(),
  activity: z.array(upsActivity).optional(),
});

const trackAnswer = z.object({
  trackResponse: z.object({
    shipment: z.array(
      z.object({
        package: z.array(upsPackage).optional(),
        warnings: z
          .array(z.object({ code: z.string().optional(), message: z.string().optional() }))
          .optional(),
      }),
    ),
  }),
});

/* ----- Track ----- */

/** The package's status and its activity, oldest first. */
export async function upsTrack(
  connection: CarrierConnection,
  trackingNumber: string,
  client: UpsClient = upsClient,
): Promise<CarrierTracking> {
  const answer = await client.call(connection, {
    method: 'GET',
    path: `${TRACK_PATH}/${encodeURIComponent(trackingNumber)}?locale=en_US`,
    answer: trackAnswer,
  });
  const shipments = answer.trackResponse.shipment;
  const packages = shipments.flatMap((shipment) => shipment.package ?? []);
  const found = packages.find((item) => item.trackingNumber === trackingNumber) ?? packages[0];
  if (!found) {
    // UPS answers 200 with a warning for a number it has no activity for yet.
    const warnings = shipments.flatMap((shipment) => shipment.warnings ?? []).map((w) => w.message);
    throw new CarrierCallError(
      'refused',
      warnings.filter(Boolean).join('; ') || `UPS has no package ${trackingNumber}`,
      false,
    );
  }
  // UPS lists the activity newest first.
  const events = (found.activity ?? []).map(eventOf).reverse();
  const delivered = events.findLast((event) => event.code === 'delivered');
  const current = found.currentStatus?.type;
  return {
    trackingNumber: found.trackingNumber ?? trackingNumber,
    status: current !== undefined ? codeOf(current) : (events.at(-1)?.code ?? 'unknown'),
    events,
    deliveredAt: delivered?.at ?? null,
  };
}

function eventOf(activity: UpsActivity): CarrierTrackEvent {
  const status = activity.status;
  const address = activity.location?.address;
  const place = [address?.city, address?.stateProvince, address?.countryCode ?? address?.country]
    .map((part) => part?.trim())
    .filter(Boolean)
    .join(', ');
  return {
    at: instantOf(activity),
    code: codeOf(status?.type),
    carrierCode: status?.code ?? status?.statusCode ?? status?.type ?? '',
    description: status?.description ?? '',
    location: place || null,
  };
}

function codeOf(type: string | undefined): CarrierTrackCode {
  return UPS_STATUS_TYPES[type?.trim().toUpperCase() ?? ''] ?? 'unknown';
}

/**
 * When an activity happened. Trusted first: `date` and `time`, the only fields the document gives a
 * format (YYYYMMDD, HHMMSS), read at the place's `gmtOffset`. Then `gmtDate` and `gmtTime`, which the
 * document describes by name alone and whose example drops a leading zero (`74700`). Without either,
 * the local reading is taken as UTC: hours off at worst, never days.
 */
function instantOf(activity: UpsActivity): Date {
  const offset = activity.gmtOffset ? offsetMinutes(activity.gmtOffset) : null;
  const local = utcReading(activity.date, activity.time);
  if (local && offset !== null) return new Date(local.getTime() - offset * 60_000);
  const gmt = activity.gmtDate && activity.gmtTime ? utcReading(activity.gmtDate, activity.gmtTime) : null;
  const at = gmt ?? local;
  if (!at) {
    throw new CarrierCallError(
      'malformed',
      `UPS activity at "${activity.date} ${activity.time}" is no date`,
      false,
    );
  }
  return at;
}

/** YYYYMMDD and HHMMSS (colons and a dropped leading zero allowed) as that reading in UTC. */
function utcReading(date: string, time: string): Date | null {
  const day = /^(\d{4})(\d{2})(\d{2})$/.exec(date.trim());
  const digits = time.trim().replaceAll(':', '');
  if (!day || !/^\d{1,6}$/.test(digits)) return null;
  const clock = digits.padStart(6, '0');
  const [year, month, dayOfMonth] = [Number(day[1]), Number(day[2]), Number(day[3])];
  const hours = Number(clock.slice(0, 2));
  const minutes = Number(clock.slice(2, 4));
  const seconds = Number(clock.slice(4, 6));
  const at = new Date(Date.UTC(year, month - 1, dayOfMonth, hours, minutes, seconds));
  // Date.UTC rolls 20260231 over into March and 25:00 into the next day: a reading it changed was no time.
  const kept = at.getUTCMonth() === month - 1 && at.getUTCDate() === dayOfMonth && at.getUTCHours() === hours;
  return kept && minutes < 60 && seconds < 60 ? at : null;
}

/** `-05:00` (or `-0500`) as minutes east of UTC. */
function offsetMinutes(offset: string): number | null {
  const match = /^([+-])(\d{2}):?(\d{2})$/.exec(offset.trim());
  if (!match) return null;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}
