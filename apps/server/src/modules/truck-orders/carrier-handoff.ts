import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DbOrTx } from '../../db/client.ts';
import type { Job } from '../../jobs/queue.ts';
import { HANDOFF_RETRIES, type HandoffJob } from './handoff-queue.ts';
import { truckOrders } from './schema.ts';
import { cancelRefusedByCarrier, carrierOf, carrierRef, findOrder } from './service.ts';

/**
 * Hands one batch order to its carrier, with no transaction open. The carrier's reference is kept and
 * the order may then be paid. A carrier that fails is asked again (the order number lets it see a
 * repeat); after the last try the order is cancelled and its booker told. An order cancelled while
 * its handoff ran is called off at the carrier.
 */
export async function runHandoffJob(db: DbOrTx, job: Job<HandoffJob>, log: FastifyBaseLogger): Promise<void> {
  const tenantId = job.tenantId as number;
  const order = await findOrder(db, tenantId, job.data.orderId);
  if (!order?.carrierPending) return;
  // Cancelled by its booker before any handoff: nothing reached the carrier.
  if (order.status !== 'unpaid') {
    await db
      .update(truckOrders)
      .set({ carrierPending: false })
      .where(and(eq(truckOrders.tenantId, tenantId), eq(truckOrders.id, order.id)));
    return;
  }
  let reference: string | null;
  try {
    const provider = carrierOf(order.quote);
    ({ reference } = await provider.book(db, {
      tenantId,
      orderNo: order.orderNo,
      productId: order.productId,
      shipment: order.shipment,
    }));
  } catch (error) {
    if (job.retryCount < HANDOFF_RETRIES) throw error;
    log.error({ err: error, order: order.orderNo }, 'the carrier did not accept the order: cancelled');
    await cancelRefusedByCarrier(db, order);
    return;
  }
  const kept = await db
    .update(truckOrders)
    .set({ carrierInfo: reference ?? '', carrierPending: false })
    .where(
      and(
        eq(truckOrders.tenantId, tenantId),
        eq(truckOrders.id, order.id),
        eq(truckOrders.status, 'unpaid'),
        eq(truckOrders.carrierPending, true),
      ),
    )
    .returning({ id: truckOrders.id });
  // Cancelled while the carrier answered: the booking it made is called off.
  if (kept.length === 0) await carrierOf(order.quote).cancel(db, { ...carrierRef(order), reference });
}
