import { z } from 'zod';
import { CarrierCallError, type CarrierConnection } from '../connection.ts';
import { callCarrier } from '../http.ts';
import type { CarrierTrackCode, CarrierTrackEvent, CarrierTracking } from '../parcel.ts';
import { authorization, karrioErrorText } from './client.ts';

/**
 * A Karrio tracker: `POST /v1/trackers` creates one for a carrier's tracking number, or answers the
 * one the server already keeps, with the carrier's events. Requests follow
 * test/fixtures/carriers/karrio/openapi.yml.
 */

/** Karrio's tracker statuses in the portal's terms. */
const KARRIO_STATUSES: Record<string, CarrierTrackCode> = {
  // Known to the carrier, not yet scanned.
  pending: 'label_created',
  in_transit: 'in_transit',
  // Late but moving: the parcel is still on its way.
  delivery_delayed: 'in_transit',
  out_for_delivery: 'out_for_delivery',
  // Held at a pickup point for the recipient: the last step before they have it.
  ready_for_pickup: 'out_for_delivery',
  delivered: 'delivered',
  on_hold: 'exception',
  delivery_failed: 'exception',
  cancelled: 'exception',
  return_to_sender: 'returned',
  unknown: 'unknown',
};

/** A Karrio tracker as `POST /v1/trackers` answers it and its `tracker_updated` webhook event carries it. */
export const karrioTracker = z.object({
  tracking_number: z.string().min(1),
  status: z.string().optional(),
  delivered: z.boolean().optional(),
  events: z
    .array(
      z.object({
        date: z.string().optional(),
        time: z.string().nullish(),
        description: z.string().optional(),
        location: z.string().optional(),
        code: z.string().nullish(),
      }),
    )
    .nullish(),
});
export type KarrioTracker = z.infer<typeof karrioTracker>;
type KarrioEvent = NonNullable<KarrioTracker['events']>[number];

/**
 * The tracking of a parcel bought through Karrio, `carrierName` being Karrio's name of its carrier
 * (`ups`, `fedex`...). Karrio's events carry no status of their own, only the carrier's code: each is
 * `unknown` in the portal's terms, and the tracker's status is the parcel's.
 */
export async function karrioTrack(
  connection: CarrierConnection,
  trackingNumber: string,
  carrierName: string,
): Promise<CarrierTracking> {
  const tracker = await callCarrier(connection, {
    method: 'POST',
    path: '/v1/trackers',
    headers: authorization(connection),
    body: { json: { tracking_number: trackingNumber, carrier_name: carrierName } },
    answer: karrioTracker,
    errorText: karrioErrorText,
  });
  return karrioTrackingOf(tracker);
}

/** A Karrio tracker in the portal's terms: the tracker's status is the parcel's, its events oldest first. */
export function karrioTrackingOf(tracker: KarrioTracker): CarrierTracking {
  const events = inOrder((tracker.events ?? []).map(eventOf));
  const status = KARRIO_STATUSES[tracker.status ?? 'unknown'] ?? 'unknown';
  const delivered = status === 'delivered' || tracker.delivered === true;
  return {
    trackingNumber: tracker.tracking_number,
    status: delivered ? 'delivered' : status,
    events,
    deliveredAt: delivered ? (events.at(-1)?.at ?? null) : null,
  };
}

/** Oldest first, whichever way the carrier listed them (most list the newest first); ties keep the carrier's order. */
function inOrder(events: CarrierTrackEvent[]): CarrierTrackEvent[] {
  const first = events[0]?.at.getTime() ?? 0;
  const last = events.at(-1)?.at.getTime() ?? 0;
  const ascending = first > last ? [...events].reverse() : events;
  return [...ascending].sort((a, b) => a.at.getTime() - b.at.getTime());
}

function eventOf(event: KarrioEvent): CarrierTrackEvent {
  return {
    at: instantOf(event.date ?? '', event.time ?? ''),
    code: 'unknown',
    carrierCode: event.code ?? '',
    description: event.description ?? '',
    location: event.location?.trim() || null,
  };
}

/**
 * Karrio gives an event's date (`YYYY-MM-DD`) and the time on the local clock (`HH:MM AM/PM`, or
 * `HH:MM`), with no zone: the reading is kept as UTC, hours off at worst, never days.
 */
function instantOf(date: string, time: string): Date {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date.trim());
  const clock = /^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$/.exec(time.trim() || '00:00');
  if (day && clock) {
    const half = clock[4]?.toUpperCase();
    const hour12 = Number(clock[1]);
    const hours = half ? (hour12 % 12) + (half === 'PM' ? 12 : 0) : hour12;
    const at = new Date(
      Date.UTC(
        Number(day[1]),
        Number(day[2]) - 1,
        Number(day[3]),
        hours,
        Number(clock[2]),
        Number(clock[3] ?? 0),
      ),
    );
    const kept = at.getUTCDate() === Number(day[3]) && at.getUTCHours() === hours && Number(clock[2]) < 60;
    if (kept) return at;
  }
  throw new CarrierCallError('malformed', `Karrio event at "${date} ${time}" is no date`, false);
}
