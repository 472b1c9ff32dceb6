import type { DbOrTx } from '../../db/client.ts';
import { queueLoan } from '../../jobs/queue.ts';

/**
 * The queue that hands a batch's orders to their carriers after the batch commits. A batch writes
 * thousands of orders in one transaction; a carrier's call inside it would hold the transaction (and
 * its locks) open for every round trip, so each carrier order is written pending and its handoff job
 * sent in the same transaction: the job exists exactly when the order does (carrier-handoff.ts runs it).
 */

export const HANDOFF_QUEUE = 'truck-order-handoff';

/** Further tries of a handoff the carrier could not answer: about two hours at 30 s, doubling. */
export const HANDOFF_RETRIES = 8;

export interface HandoffJob {
  orderId: number;
}

/** The running server's queue, lent when the module's routes are registered. */
export const handoffQueue = queueLoan('hand orders to their carriers');

/** Sends the orders' handoff jobs in the writing transaction `tx`. */
export async function sendHandoffJobs(
  tx: DbOrTx,
  tenantId: number,
  orders: readonly { id: number; userId: number }[],
) {
  if (orders.length === 0) return;
  const { queue, retrySeconds } = handoffQueue.held();
  for (const order of orders)
    await queue.send<HandoffJob>(
      HANDOFF_QUEUE,
      { orderId: order.id },
      {
        tx,
        tenantId,
        userId: order.userId,
        retryLimit: HANDOFF_RETRIES,
        retryDelaySeconds: retrySeconds,
        retryBackoff: true,
      },
    );
}
