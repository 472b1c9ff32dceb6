import { createHmac, randomBytes } from 'node:crypto';
import {
  MAX_WEBHOOKS_PER_ORGANISATION,
  WEBHOOK_DELIVERY_KEEP_DAYS,
  WEBHOOK_EVENTS,
  WEBHOOK_HEADERS,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  type WebhookCreateBody,
  type WebhookDeliveryListQuery,
  type WebhookEvent,
  type WebhookListQuery,
  type WebhookUpdateBody,
} from '@freight/contracts/integrations';
import { and, count, desc, eq, ilike, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Config } from '../../config.ts';
import type { DbOrTx } from '../../db/client.ts';
import type { Job, JobQueue } from '../../jobs/queue.ts';
import { type BatchOptions, deleteInBatches } from '../../lib/batched-delete.ts';
import { badField, conflict, forbidden, notFound, tooMany } from '../../lib/errors.ts';
import { containing } from '../../lib/filters.ts';
import { reachesOnlyPublic } from '../../lib/public-address.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { organisationNames } from '../customers/service.ts';
import { deliveryFailureKey } from './delivery-errors.ts';
import { webhookDeliveries, webhookEndpoints } from './schema.ts';
import { postWebhook } from './webhook-transport.ts';

type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;
type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export const WEBHOOK_QUEUE = 'webhook-delivery';
/** Tries after the first: with a 30 s start and doubling, the last is about two hours after the event. */
export const WEBHOOK_RETRY_LIMIT = 8;
/** A receiver that takes longer has failed this try. */
const WEBHOOK_TIMEOUT_MS = 5_000;
/** What of a receiver's error answer is kept in the log. */
const ERROR_TEXT_MAX = 500;

/**
 * The queue and settings deliveries are sent with. Set by the routes plugin when the app starts: the
 * status changes happen deep in other modules' services, which get a transaction and nothing more.
 * Without it (scripts that use the services alone) the delivery rows are written and wait for a redeliver.
 */
let sender: { jobs: JobQueue; retrySeconds: number } | null = null;

export function useWebhookSender(jobs: JobQueue | null, config?: Pick<Config, 'WEBHOOK_RETRY_SECONDS'>) {
  sender = jobs ? { jobs, retrySeconds: config?.WEBHOOK_RETRY_SECONDS ?? 30 } : null;
}

const isStaff = (caller: Caller) => caller.identity === 'employee';

/** Endpoints a caller may see: staff every one of the tenant, anyone else its organisation's. */
function visibleTo(caller: Caller): SQL | undefined {
  const tenant = eq(webhookEndpoints.tenantId, caller.tenantId);
  if (isStaff(caller)) return tenant;
  if (!caller.organisationId) return sql`false`;
  return and(tenant, eq(webhookEndpoints.organisationId, caller.organisationId));
}

/* ---------- addresses ---------- */

async function checkUrl(url: string, allowPrivate: boolean) {
  if (!allowPrivate && !(await reachesOnlyPublic(url))) throw badField('url', 'webhook.urlPrivate');
}

/* ---------- endpoints ---------- */

/** A signing secret: `whsec_` and 32 random bytes. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

async function present(db: DbOrTx, tenantId: number, rows: EndpointRow[]) {
  const orgIds = [...new Set(rows.map((r) => r.organisationId).filter((id): id is number => id != null))];
  const names = await organisationNames(db, tenantId, orgIds);
  return rows.map((r) => ({
    id: r.id,
    url: r.url,
    events: r.events.filter((e): e is (typeof WEBHOOK_EVENTS)[number] => e !== 'ping'),
    enabled: r.enabled,
    organisationId: r.organisationId,
    organisationName: r.organisationId == null ? '' : (names.get(r.organisationId) ?? ''),
    secretPrefix: r.secret.slice(0, 12),
    previousSecretUntil:
      r.previousSecretUntil && r.previousSecretUntil > new Date() ? r.previousSecretUntil : null,
    createdAt: r.createdAt,
  }));
}

export async function listWebhooksFor(db: DbOrTx, caller: Caller, query: WebhookListQuery) {
  const { page, limit, keyword } = query;
  const where = and(
    visibleTo(caller),
    keyword ? ilike(webhookEndpoints.url, containing(keyword)) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(webhookEndpoints)
      .where(where)
      .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(webhookEndpoints).where(where),
  ]);
  return { list: await present(db, caller.tenantId, rows), total: total?.n ?? 0, page, limit };
}

async function visibleEndpoint(db: DbOrTx, caller: Caller, id: number) {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(visibleTo(caller), eq(webhookEndpoints.id, id)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** Makes an endpoint for the caller's organisation (staff: for the tenant); answers its secret this once. */
export async function createWebhookFor(
  db: DbOrTx,
  caller: Caller,
  body: WebhookCreateBody,
  allowPrivate: boolean,
) {
  if (!isStaff(caller) && !caller.organisationId) throw forbidden();
  await checkUrl(body.url, allowPrivate);
  const organisationId = isStaff(caller) ? null : caller.organisationId;
  const [existing] = await db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.tenantId, caller.tenantId),
        organisationId == null
          ? isNull(webhookEndpoints.organisationId)
          : eq(webhookEndpoints.organisationId, organisationId),
      ),
    );
  if ((existing?.n ?? 0) >= MAX_WEBHOOKS_PER_ORGANISATION)
    throw conflict('webhook.tooMany', { max: MAX_WEBHOOKS_PER_ORGANISATION });
  const secret = newSecret();
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      tenantId: caller.tenantId,
      organisationId,
      createdBy: caller.id,
      url: body.url,
      secret,
      events: WEBHOOK_EVENTS.filter((e) => body.events.includes(e)),
      enabled: body.enabled,
    })
    .returning();
  if (!row) throw new Error('webhook insert returned nothing');
  const [view] = await present(db, caller.tenantId, [row]);
  return { ...(view as NonNullable<typeof view>), secret };
}

export async function updateWebhookFor(
  db: DbOrTx,
  caller: Caller,
  body: WebhookUpdateBody,
  allowPrivate: boolean,
) {
  const row = await visibleEndpoint(db, caller, body.id);
  if (body.url !== undefined) await checkUrl(body.url, allowPrivate);
  const [updated] = await db
    .update(webhookEndpoints)
    .set({
      ...(body.url !== undefined ? { url: body.url } : {}),
      ...(body.events !== undefined
        ? { events: WEBHOOK_EVENTS.filter((e) => body.events?.includes(e)) }
        : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    })
    .where(and(eq(webhookEndpoints.tenantId, caller.tenantId), eq(webhookEndpoints.id, row.id)))
    .returning();
  const [view] = await present(db, caller.tenantId, [updated ?? row]);
  return view as NonNullable<typeof view>;
}

/**
 * Gives an endpoint a new secret and answers it this once. The old one keeps signing deliveries beside
 * it for WEBHOOK_SECRET_OVERLAP_HOURS, so the receiver can be switched over without losing any.
 */
export async function rotateWebhookSecretFor(db: DbOrTx, caller: Caller, id: number) {
  const row = await visibleEndpoint(db, caller, id);
  const secret = newSecret();
  const [updated] = await db
    .update(webhookEndpoints)
    .set({
      secret,
      previousSecret: row.secret,
      previousSecretUntil: new Date(Date.now() + WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000),
    })
    .where(and(eq(webhookEndpoints.tenantId, caller.tenantId), eq(webhookEndpoints.id, row.id)))
    .returning();
  if (!updated) throw notFound();
  const [view] = await present(db, caller.tenantId, [updated]);
  return { ...(view as NonNullable<typeof view>), secret };
}

/** Deletes deliveries older than WEBHOOK_DELIVERY_KEEP_DAYS, of every tenant (the housekeeping pass). */
export function sweepOldDeliveries(db: DbOrTx, options?: BatchOptions): Promise<number> {
  const before = new Date(Date.now() - WEBHOOK_DELIVERY_KEEP_DAYS * 86_400_000);
  return deleteInBatches(db, webhookDeliveries, lt(webhookDeliveries.createdAt, before), options);
}

/** Deletes an endpoint and its log (nothing else refers to them). */
export async function deleteWebhookFor(db: DbOrTx, caller: Caller, id: number) {
  const row = await visibleEndpoint(db, caller, id);
  await db.transaction(async (tx) => {
    await tx
      .delete(webhookDeliveries)
      .where(and(eq(webhookDeliveries.tenantId, row.tenantId), eq(webhookDeliveries.endpointId, row.id)));
    await tx
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.tenantId, row.tenantId), eq(webhookEndpoints.id, row.id)));
  });
  return { id: row.id };
}

/* ---------- events ---------- */

export interface StatusEvent {
  tenantId: number;
  /** The organisation that owns the order or waybill. */
  organisationId: number;
  kind: 'order.status' | 'waybill.status';
  /** The order or waybill number. */
  sn: string;
  from: string | null;
  status: string;
  at?: Date;
}

/** A delivery job: the delivery, its endpoint (for the per-endpoint turn), and tries made by earlier jobs. */
export interface DeliveryJob {
  deliveryId: number;
  endpointId?: number;
  /** Tries made before this job was sent (a job put back for its endpoint's turn keeps counting). */
  triesBefore?: number;
}

async function enqueue(
  db: DbOrTx,
  rows: Pick<DeliveryRow, 'id' | 'endpointId' | 'tenantId'>[],
  options: { triesBefore?: number; startAfterSeconds?: number } = {},
) {
  if (!sender) return;
  const triesBefore = options.triesBefore ?? 0;
  for (const row of rows)
    await sender.jobs.send(
      WEBHOOK_QUEUE,
      {
        deliveryId: row.id,
        endpointId: row.endpointId,
        ...(triesBefore ? { triesBefore } : {}),
      } satisfies DeliveryJob,
      {
        tenantId: row.tenantId,
        // In the caller's transaction when there is one (the job exists only if the change commits);
        // a change made without one is already committed, so the queue's own connection will do.
        ...(db instanceof PgTransaction ? { tx: db } : {}),
        retryLimit: Math.max(0, WEBHOOK_RETRY_LIMIT - triesBefore),
        retryDelaySeconds: sender.retrySeconds,
        retryBackoff: true,
        ...(options.startAfterSeconds ? { startAfterSeconds: options.startAfterSeconds } : {}),
        // Five-second tries: a job still running after a minute is stuck, not slow.
        expireInSeconds: 60,
      },
    );
}

/** Deliveries one process sends to one endpoint at once: a slow receiver holds no more workers. */
export const DELIVERIES_PER_ENDPOINT = 1;
const sendingTo = new Map<number, number>();

/**
 * The delivery worker: a delivery whose endpoint already has its share in flight here is put back for
 * a moment (as a new job keeping its tries) instead of holding a worker while it waits, so the other
 * endpoints' deliveries, of this tenant and every other, go on.
 */
export async function deliverInTurn(
  db: DbOrTx,
  job: Pick<Job<DeliveryJob>, 'data' | 'tenantId' | 'retryCount'>,
  options: { allowPrivate: boolean; retrySeconds: number },
) {
  const endpointId = job.data.endpointId;
  if (endpointId === undefined) return deliverWebhook(db, job, options);
  if ((sendingTo.get(endpointId) ?? 0) >= DELIVERIES_PER_ENDPOINT) {
    const triesBefore = (job.data.triesBefore ?? 0) + job.retryCount;
    // Back once the try in flight has had its time: sooner would only make the same job again.
    if (job.tenantId !== null)
      await enqueue(db, [{ id: job.data.deliveryId, endpointId, tenantId: job.tenantId }], {
        triesBefore,
        startAfterSeconds: WEBHOOK_TIMEOUT_MS / 1000,
      });
    return;
  }
  sendingTo.set(endpointId, (sendingTo.get(endpointId) ?? 0) + 1);
  try {
    await deliverWebhook(db, job, options);
  } finally {
    const left = (sendingTo.get(endpointId) ?? 1) - 1;
    if (left > 0) sendingTo.set(endpointId, left);
    else sendingTo.delete(endpointId);
  }
}

/**
 * A status change of an order or waybill, in the caller's transaction: one delivery row per enabled
 * endpoint that subscribed to it (the owning organisation's and the tenant's staff endpoints) and its
 * job, both there only if the change commits.
 */
export async function emitStatusEvent(db: DbOrTx, event: StatusEvent) {
  const endpoints = await db
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.tenantId, event.tenantId),
        eq(webhookEndpoints.enabled, true),
        or(
          eq(webhookEndpoints.organisationId, event.organisationId),
          isNull(webhookEndpoints.organisationId),
        ),
      ),
    );
  const matching = endpoints.filter((e) => e.events.includes(event.kind));
  if (matching.length === 0) return;
  const payload = {
    sn: event.sn,
    from: event.from,
    status: event.status,
    at: (event.at ?? new Date()).toISOString(),
  };
  const rows = await db
    .insert(webhookDeliveries)
    .values(matching.map((e) => ({ tenantId: event.tenantId, endpointId: e.id, event: event.kind, payload })))
    .returning();
  await enqueue(db, rows);
}

/** The test button: a `ping` to one endpoint, delivered like any event. */
export async function pingWebhookFor(db: DbOrTx, caller: Caller, id: number) {
  const endpoint = await visibleEndpoint(db, caller, id);
  if (!endpoint.enabled) throw conflict('webhook.disabled');
  return db.transaction(async (tx) => {
    // One test ping waiting per endpoint: a receiver that never answers gets no queue of them.
    await tx
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.tenantId, endpoint.tenantId), eq(webhookEndpoints.id, endpoint.id)))
      .for('update');
    const [waiting] = await tx
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.tenantId, endpoint.tenantId),
          eq(webhookDeliveries.endpointId, endpoint.id),
          eq(webhookDeliveries.event, 'ping'),
          eq(webhookDeliveries.status, 'pending'),
        ),
      );
    if ((waiting?.n ?? 0) > 0) throw tooMany('webhook.pingWaiting');
    const rows = await tx
      .insert(webhookDeliveries)
      .values({
        tenantId: endpoint.tenantId,
        endpointId: endpoint.id,
        event: 'ping' as WebhookEvent,
        payload: { message: 'ping', at: new Date().toISOString() },
      })
      .returning();
    await enqueue(tx, rows);
    return { id: rows[0]?.id ?? 0 };
  });
}

/** Sends a delivery again from the start of the retry policy; its attempts keep counting. */
export async function redeliverWebhookFor(db: DbOrTx, caller: Caller, deliveryId: number) {
  const [found] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(
      webhookEndpoints,
      and(
        eq(webhookEndpoints.tenantId, webhookDeliveries.tenantId),
        eq(webhookEndpoints.id, webhookDeliveries.endpointId),
      ),
    )
    .where(and(visibleTo(caller), eq(webhookDeliveries.id, deliveryId)))
    .limit(1);
  if (!found) throw notFound();
  if (!found.endpoint.enabled) throw conflict('webhook.disabled');
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptAt: null, deliveredAt: null })
      .where(and(eq(webhookDeliveries.tenantId, caller.tenantId), eq(webhookDeliveries.id, deliveryId)))
      .returning();
    await enqueue(tx, rows);
    return { id: deliveryId };
  });
}

export async function listDeliveriesFor(db: DbOrTx, caller: Caller, query: WebhookDeliveryListQuery) {
  const { page, limit, endpointId, status } = query;
  const where = and(
    visibleTo(caller),
    endpointId ? eq(webhookDeliveries.endpointId, endpointId) : undefined,
    status ? eq(webhookDeliveries.status, status) : undefined,
  );
  const joined = and(
    eq(webhookEndpoints.tenantId, webhookDeliveries.tenantId),
    eq(webhookEndpoints.id, webhookDeliveries.endpointId),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ delivery: webhookDeliveries, url: webhookEndpoints.url })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, joined)
      .where(where)
      .orderBy(desc(webhookDeliveries.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(webhookDeliveries).innerJoin(webhookEndpoints, joined).where(where),
  ]);
  return {
    list: rows.map(({ delivery: d, url }) => ({
      id: d.id,
      endpointId: d.endpointId,
      url,
      event: d.event,
      payload: d.payload,
      status: d.status,
      attempts: d.attempts,
      lastStatusCode: d.lastStatusCode,
      lastError: d.lastError,
      nextAttemptAt: d.nextAttemptAt,
      deliveredAt: d.deliveredAt,
      createdAt: d.createdAt,
    })),
    total: total?.n ?? 0,
    page,
    limit,
  };
}

/* ---------- delivery ---------- */

/** `sha256=` and the hex HMAC-SHA256 of `timestamp.body` with the endpoint's secret. */
export function signWebhook(secret: string, timestamp: string, body: string) {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The signature header: the secret's, and the replaced secret's while it still overlaps. */
function signatures(
  endpoint: Pick<EndpointRow, 'secret' | 'previousSecret' | 'previousSecretUntil'>,
  timestamp: string,
  body: string,
) {
  const current = signWebhook(endpoint.secret, timestamp, body);
  const overlapping =
    endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date();
  return overlapping
    ? `${current},${signWebhook(endpoint.previousSecret as string, timestamp, body)}`
    : current;
}

class DeliveryFailed extends Error {}

/**
 * The delivery job: one POST; a 2xx answer is delivered, anything else (or no answer in 5 s) is noted
 * on the row and thrown, so the queue tries again after its backoff, until the tries run out.
 */
export async function deliverWebhook(
  db: DbOrTx,
  job: Pick<Job<DeliveryJob>, 'data' | 'tenantId' | 'retryCount'>,
  options: { allowPrivate: boolean; retrySeconds: number },
) {
  const tenantId = job.tenantId;
  if (tenantId === null) return;
  const [found] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(
      webhookEndpoints,
      and(
        eq(webhookEndpoints.tenantId, webhookDeliveries.tenantId),
        eq(webhookEndpoints.id, webhookDeliveries.endpointId),
      ),
    )
    .where(and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.id, job.data.deliveryId)))
    .limit(1);
  // Deleted with its endpoint, or delivered by an earlier job: nothing to do.
  if (!found || found.delivery.status === 'delivered') return;
  const { delivery, endpoint } = found;
  const tries = job.retryCount + (job.data.triesBefore ?? 0);
  const last = tries >= WEBHOOK_RETRY_LIMIT;
  const note = async (patch: Partial<DeliveryRow>) => {
    await db
      .update(webhookDeliveries)
      .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, ...patch })
      .where(and(eq(webhookDeliveries.tenantId, tenantId), eq(webhookDeliveries.id, delivery.id)));
  };
  if (!endpoint.enabled) {
    await note({ status: 'failed', lastError: 'webhook.failure.disabled', nextAttemptAt: null });
    return;
  }
  const body = JSON.stringify({
    id: delivery.id,
    event: delivery.event,
    createdAt: delivery.createdAt.toISOString(),
    data: delivery.payload,
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    // The address is checked as the socket connects, and the socket connects to the address checked.
    const res = await postWebhook(endpoint.url, {
      headers: {
        'content-type': 'application/json',
        'user-agent': 'freight-webhooks/1',
        [WEBHOOK_HEADERS.id]: String(delivery.id),
        [WEBHOOK_HEADERS.timestamp]: timestamp,
        [WEBHOOK_HEADERS.signature]: signatures(endpoint, timestamp, body),
      },
      body,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      allowPrivate: options.allowPrivate,
      keepBytes: ERROR_TEXT_MAX,
    });
    statusCode = res.status;
    const text = res.text;
    if (res.status < 200 || res.status > 299)
      error = `HTTP ${res.status}${text ? `: ${text.slice(0, ERROR_TEXT_MAX)}` : ''}`;
  } catch (e) {
    // Kept as a reason key, shown in the reader's language (delivery-errors.ts).
    error = deliveryFailureKey(e);
  }
  if (error === null) {
    await note({
      status: 'delivered',
      lastStatusCode: statusCode,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: new Date(),
    });
    return;
  }
  // The queue doubles the delay each try; the time shown is its estimate.
  const delay = options.retrySeconds * 2 ** tries;
  await note({
    status: last ? 'failed' : 'pending',
    lastStatusCode: statusCode,
    lastError: error,
    nextAttemptAt: last ? null : new Date(Date.now() + delay * 1000),
  });
  throw new DeliveryFailed(error);
}
