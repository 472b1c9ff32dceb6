import { type CustomsInput, crossesBorder, ratedShipment } from '@freight/contracts/express-quotes';
import { parseMoney } from '@freight/contracts/money';
import { and, eq, isNotNull, notInArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { queueLoan } from '../../jobs/queue.ts';
import { conflict } from '../../lib/errors.ts';
import {
  findCarrierLabel,
  type ParcelBooking,
  type ParcelCustoms,
  registerCarrierAccountUses,
  voidCarrierLabel,
} from '../carriers/service.ts';
import { parcelShipmentOf } from '../express-channels/carriers.ts';
import { readStoredFile, type UploadStore } from '../uploads/service.ts';
import { expressWaybills } from './schema.ts';

/**
 * Booking a waybill through the carrier its channel names: paying writes it `label_pending` and sends
 * the label job in the same transaction (carrier-labels.ts buys the label, with no transaction open);
 * voiding goes to the carrier before any money moves back.
 */

type WaybillRow = typeof expressWaybills.$inferSelect;

export const LABEL_QUEUE = 'express-waybill-label';

/** Further tries of a label purchase the carrier could not answer (timeouts, 5xx): about two hours at 30 s. */
export const LABEL_RETRIES = 8;

export interface LabelJob {
  waybillId: number;
}

/** The running server's queue, lent when the module's routes are registered. */
export const labelQueue = queueLoan('buy carrier labels');

/** Sends the waybill's label job inside the paying transaction: it exists only if the payment commits. */
export async function sendLabelJob(tx: DbOrTx, waybill: Pick<WaybillRow, 'tenantId' | 'id' | 'userId'>) {
  const { queue, retrySeconds } = labelQueue.held();
  await queue.send<LabelJob>(
    LABEL_QUEUE,
    { waybillId: waybill.id },
    {
      tx,
      tenantId: waybill.tenantId,
      userId: waybill.userId,
      retryLimit: LABEL_RETRIES,
      retryDelaySeconds: retrySeconds,
      retryBackoff: true,
    },
  );
}

/** The waybill as the carrier books it: its own addresses and parcels, its number as the reference. */
export function bookingOf(waybill: WaybillRow): ParcelBooking {
  // Only a parcel crossing a border declares its contents; one kept by mistake on a domestic one is not sent.
  const customs = crossesBorder(waybill.shipment) ? waybill.shipment.customs : undefined;
  return {
    ...parcelShipmentOf(ratedShipment(waybill.shipment)),
    serviceCode: waybill.carrierService ?? '',
    reference: waybill.waybillNo,
    labelFormat: waybill.carrierLabelFormat ?? 'pdf',
    idempotencyKey: waybill.labelKey ?? `waybill-${waybill.tenantId}-${waybill.id}`,
    ...(customs ? { customs: parcelCustomsOf(customs, waybill.waybillNo) } : {}),
  };
}

/** The shipment's customs declaration in the carriers' terms: unit values in cents, the waybill as its invoice. */
function parcelCustomsOf(customs: CustomsInput, waybillNo: string): ParcelCustoms {
  return {
    contentsType: customs.contentsType,
    items: customs.items.map((item) => ({
      description: item.description,
      hsCode: item.hsCode,
      originCountry: item.originCountry,
      quantity: item.quantity,
      unitValueCents: Number(parseMoney(item.unitValue)),
      weight: item.weight,
    })),
    currency: customs.currency,
    incoterm: customs.incoterm,
    ...(customs.senderTaxId ? { senderTaxId: customs.senderTaxId } : {}),
    ...(customs.receiverTaxId ? { receiverTaxId: customs.receiverTaxId } : {}),
    invoiceNumber: waybillNo,
  };
}

/**
 * Voids the waybill's label at the carrier, before its money moves back. A label bought is voided by
 * its shipment id; a purchase begun whose answer never came is looked for first, and voided if the
 * carrier made it. Safe to repeat. When the carrier cannot be asked or will not void, nothing is
 * refunded and the caller is told so.
 */
export async function releaseAtCarrier(db: DbOrTx, waybill: WaybillRow): Promise<void> {
  if (waybill.carrierAccountId === null) return;
  const accountId = waybill.carrierAccountId;
  let shipmentId = waybill.carrierReference;
  if (!shipmentId && waybill.labelAttempts > 0) {
    const found = await findCarrierLabel(db, waybill.tenantId, accountId, bookingOf(waybill));
    if (!found.ok) {
      await keepCarrierError(db, waybill, found.detail);
      throw conflict('expressWaybill.carrierVoidFailed', { waybillNo: waybill.waybillNo });
    }
    shipmentId = found.label?.shipmentId ?? null;
  }
  if (!shipmentId) return;
  const voided = await voidCarrierLabel(db, waybill.tenantId, accountId, shipmentId);
  if (!voided.ok) {
    await keepCarrierError(db, waybill, voided.detail);
    throw conflict('expressWaybill.carrierVoidFailed', { waybillNo: waybill.waybillNo });
  }
}

/** The carrier's own words about a failed call, kept on the waybill for staff. */
export async function keepCarrierError(
  db: DbOrTx,
  waybill: Pick<WaybillRow, 'tenantId' | 'id'>,
  detail: string,
) {
  await db
    .update(expressWaybills)
    .set({ carrierError: detail.slice(0, 1000) })
    .where(and(eq(expressWaybills.tenantId, waybill.tenantId), eq(expressWaybills.id, waybill.id)));
}

/** The stored carrier labels of the waybills that have one, by waybill id. */
export async function carrierLabelFiles(
  store: UploadStore,
  waybills: readonly WaybillRow[],
): Promise<Map<number, { format: 'pdf' | 'zpl'; bytes: Buffer }>> {
  const files = new Map<number, { format: 'pdf' | 'zpl'; bytes: Buffer }>();
  for (const waybill of waybills)
    if (waybill.labelFile)
      files.set(waybill.id, {
        format: waybill.labelFile.endsWith('.zpl') ? 'zpl' : 'pdf',
        bytes: await readStoredFile(store, waybill.labelFile),
      });
  return files;
}

/**
 * Waybills whose label the account bought, or is buying, and that may still be voided or tracked: the
 * account is not deleted from under them (a refund must reach the carrier first).
 */
registerCarrierAccountUses(async (db, tenantId, accountId) => {
  const rows = await db
    .select({ waybillNo: expressWaybills.waybillNo })
    .from(expressWaybills)
    .where(
      and(
        eq(expressWaybills.tenantId, tenantId),
        eq(expressWaybills.carrierAccountId, accountId),
        isNotNull(expressWaybills.paidAt),
        notInArray(expressWaybills.status, ['refunded', 'cancelled', 'delivered']),
      ),
    )
    .limit(5);
  return rows.map((row) => row.waybillNo);
});
