import { formatMoney } from '@freight/contracts/money';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../../db/client.ts';
import type { Job } from '../../jobs/queue.ts';
import { isUniqueViolation } from '../../lib/errors.ts';
import {
  type BoughtLabel,
  buyCarrierLabel,
  type CarrierRefusal,
  voidCarrierLabel,
} from '../carriers/service.ts';
import { NoticeOrderType, NoticeType, noticeUser } from '../notices/service.ts';
import { putCarrierLabel, recordCarrierLabel, type UploadStore } from '../uploads/service.ts';
import {
  bookingOf,
  keepCarrierError,
  LABEL_RETRIES,
  type LabelJob,
  releaseAtCarrier,
} from './carrier-booking.ts';
import { expressWaybills } from './schema.ts';
import { addEvent, findWaybill, refundPaidWaybill, type WaybillRow } from './service.ts';

/** Thrown to have the queue try the purchase again later; its message is the carrier's words. */
class LabelRetry extends Error {}

/**
 * The label job of a paid carrier waybill (`label_pending`): buys the label with no transaction open,
 * stores it as a private file and moves the waybill to be printed, in one transaction.
 *
 * - Each attempt is counted before its call goes out, so an attempt whose answer was lost (a timeout,
 *   a 5xx, a crash) makes the next one ask the carrier for the label it may already have made.
 * - A timeout or 5xx is tried again by the queue, with back-off; a refusal, or the last try failing,
 *   voids the waybill and refunds it once (after making sure the carrier holds no label for it).
 * - A waybill refunded while its label was being bought gets its label voided at the carrier.
 */
export async function runLabelJob(
  db: DbOrTx,
  store: UploadStore,
  job: Job<LabelJob>,
  log: FastifyBaseLogger,
): Promise<void> {
  const tenantId = job.tenantId as number;
  const waybill = await findWaybill(db, tenantId, job.data.waybillId);
  if (waybill?.status !== 'label_pending' || waybill.carrierAccountId === null) return;
  const [attempt] = await db
    .update(expressWaybills)
    .set({ labelAttempts: sql`${expressWaybills.labelAttempts} + 1` })
    .where(
      and(
        eq(expressWaybills.tenantId, tenantId),
        eq(expressWaybills.id, waybill.id),
        eq(expressWaybills.status, 'label_pending'),
      ),
    )
    .returning({ attempts: expressWaybills.labelAttempts });
  if (!attempt) return;
  const booking = bookingOf(waybill);
  const bought = await buyCarrierLabel(db, tenantId, waybill.carrierAccountId, booking, {
    reconcile: attempt.attempts > 1,
  });
  if (bought.ok) {
    const taken = await keepLabel(db, store, waybill, bought.label, log);
    if (taken) await refuseTakenNumber(db, waybill, bought.label, taken, log);
    return;
  }
  const lastTry = job.retryCount >= LABEL_RETRIES;
  if (bought.retryable && !lastTry) {
    await keepCarrierError(db, waybill, bought.detail);
    throw new LabelRetry(bought.detail);
  }
  await refuseLabel(db, { ...waybill, labelAttempts: attempt.attempts }, bought, log);
}

/**
 * Keeps a bought label as the waybill's file and moves the waybill on; answers the tracking number when
 * another waybill already holds it (the label then not kept), else null.
 */
async function keepLabel(
  db: DbOrTx,
  store: UploadStore,
  waybill: WaybillRow,
  label: BoughtLabel,
  log: FastifyBaseLogger,
): Promise<string | null> {
  const key = await putCarrierLabel(store, label.file.bytes, label.file.mime);
  const trackingNo = label.trackingNumbers[0] ?? waybill.trackingNo;
  const kept = await db
    .transaction(async (tx) => {
      const moved = await tx
        .update(expressWaybills)
        .set({
          status: 'to_be_printed',
          trackingNo,
          carrierReference: label.shipmentId,
          labelFile: key,
          carrierError: null,
        })
        .where(
          and(
            eq(expressWaybills.tenantId, waybill.tenantId),
            eq(expressWaybills.id, waybill.id),
            eq(expressWaybills.status, 'label_pending'),
          ),
        )
        .returning({ id: expressWaybills.id });
      if (moved.length === 0) return false;
      await recordCarrierLabel(tx, {
        tenantId: waybill.tenantId,
        key,
        mime: label.file.mime,
        size: label.file.bytes.length,
        record: `express-waybill:${waybill.id}`,
        name: `label-${waybill.waybillNo}.${label.file.mime === 'application/pdf' ? 'pdf' : 'zpl'}`,
      });
      await addEvent(tx, waybill, 'label', 'label_pending', 'to_be_printed', null, trackingNo);
      return true;
    })
    .catch((error: unknown) => {
      // The carrier gave a tracking number another waybill of the tenant holds: tried again, it would
      // fail the same way for ever, with the label live and the money taken.
      if (isUniqueViolation(error)) return 'taken' as const;
      throw error;
    });
  if (kept === 'taken') {
    await store.remove(key);
    return trackingNo;
  }
  if (kept) return null;
  // The waybill was refunded while its label was bought: the label must not stay live at the carrier.
  await store.remove(key);
  await voidOrRetry(db, waybill, label, 'a label bought for a refunded waybill', log);
  return null;
}

/**
 * Voids a bought label that must not stay live at the carrier; if the carrier will not void it, the
 * carrier's words are kept on the waybill and the job is tried again later.
 */
async function voidOrRetry(
  db: DbOrTx,
  waybill: WaybillRow,
  label: BoughtLabel,
  why: string,
  log: FastifyBaseLogger,
) {
  const voided = await voidCarrierLabel(
    db,
    waybill.tenantId,
    waybill.carrierAccountId as number,
    label.shipmentId,
  );
  if (voided.ok) return;
  log.error(
    { waybill: waybill.waybillNo, shipment: label.shipmentId, detail: voided.detail },
    `${why} could not be voided`,
  );
  await keepCarrierError(db, waybill, `${why}: label ${label.shipmentId} not voided: ${voided.detail}`);
  throw new LabelRetry(voided.detail);
}

/**
 * A label whose tracking number is already another waybill's: the portal cannot tell the two parcels
 * apart, so the label is voided at the carrier and the waybill refunded as for a refused label, the
 * carrier's number named for staff. If the carrier will not void it, the job is tried again later.
 */
async function refuseTakenNumber(
  db: DbOrTx,
  waybill: WaybillRow,
  label: BoughtLabel,
  trackingNo: string,
  log: FastifyBaseLogger,
) {
  const detail = `the carrier gave tracking number ${trackingNo}, which another waybill already has`;
  log.error({ waybill: waybill.waybillNo, shipment: label.shipmentId, trackingNo }, detail);
  await voidOrRetry(db, waybill, label, detail, log);
  await refuseLabel(db, waybill, { ok: false, failure: 'refused', detail, retryable: false }, log);
}

/**
 * The carrier will not issue the label: the waybill is voided and its payment given back once, and
 * its booking user told. A purchase whose answer was lost is looked for first: if the carrier made the
 * label after all, it is voided before the refund; if the carrier cannot be asked, nothing is refunded
 * and the job fails, for staff to settle from the waybill (releaseAtCarrier runs again on their refund).
 */
async function refuseLabel(db: DbOrTx, waybill: WaybillRow, refusal: CarrierRefusal, log: FastifyBaseLogger) {
  try {
    if (refusal.retryable) await releaseAtCarrier(db, waybill);
  } catch (error) {
    log.warn({ waybill: waybill.waybillNo, detail: refusal.detail }, 'carrier label: not refunded yet');
    throw error;
  }
  const refunded = await refundPaidWaybill(db, waybill, {
    actorId: null,
    reason: '',
    noticeOwner: false,
    set: { labelFailure: refusal.failure, carrierError: refusal.detail.slice(0, 1000) },
  });
  if (refunded.repeated) return;
  await noticeUser(db, {
    tenantId: waybill.tenantId,
    userId: waybill.userId,
    type: NoticeType.Dialog,
    title: 'expressWaybill.notice.title',
    content: {
      key: 'expressWaybill.notice.labelRefused',
      params: { waybillNo: waybill.waybillNo, amount: formatMoney(waybill.paid) },
    },
    orderType: NoticeOrderType.ExpressOrder,
    orderSn: waybill.waybillNo,
  });
}
