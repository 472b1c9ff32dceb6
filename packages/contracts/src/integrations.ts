import { z } from 'zod';
import { pageQuery } from './api.ts';
import { pageOf, timestamp } from './responses.ts';
import { idField, str } from './validation.ts';

/**
 * Integrations: what a shipper's own system uses to ship without the portal. Today API keys and
 * `/shipment/uploadapi`; webhooks (signed status POSTs from the job queue) join this area later.
 */

/** The calls a key may be allowed, one word per group of routes (a route names its group). */
export const API_KEY_SCOPES = ['quote', 'book', 'pay', 'track', 'upload'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * SPEC section 7: calls under /shipment/uploadapi carry fixed "api id and user key" headers. The api
 * id is the key's visible prefix (as the list shows it), the user key the secret shown once. HTTP
 * header names are case-insensitive; these are the spellings the help text shows.
 */
export const API_KEY_HEADERS = { apiId: 'apiId', userKey: 'userKey' } as const;

/** Every key starts so, so a leaked one is recognisable (secret scanners, logs). */
export const API_KEY_PREFIX = 'fpk_';
/** The characters of a key shown in lists and sent as `apiId`: `fpk_` and the next 8. */
export const API_KEY_ID_LENGTH = API_KEY_PREFIX.length + 8;
/** `fpk_` and 32 random bytes in base64url (43 characters). */
export const API_KEY_LENGTH = API_KEY_PREFIX.length + 43;

/** A user keeps at most this many live keys: enough for each system it runs, few enough to review. */
export const MAX_LIVE_KEYS_PER_USER = 20;

/** The page that lists and makes keys (menu id 151). */
export const API_KEYS_PAGE = '/apiKeys';

/** Where an external system posts an order file (base /shipment, not /api). */
export const UPLOAD_API_PATH = '/shipment/uploadapi';

export const API_KEY_STATUSES = ['active', 'revoked'] as const;
export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

export const apiKeyListQuery = pageQuery.extend({
  /** The start of the key's id, or part of its name. */
  keyword: str().trim().max(60).optional(),
  status: z.enum(API_KEY_STATUSES).optional(),
});
export type ApiKeyListQuery = z.infer<typeof apiKeyListQuery>;

export const apiKeyCreateBody = z.object({
  name: str().trim().min(1).max(60),
  scopes: z
    .array(z.enum(API_KEY_SCOPES))
    .min(1, { error: 'validation.required' })
    .max(API_KEY_SCOPES.length)
    .refine((list) => new Set(list).size === list.length, { error: 'validation.invalid' }),
});
export type ApiKeyCreateBody = z.infer<typeof apiKeyCreateBody>;

export const apiKeyIdBody = z.object({ id: idField() });

/* ----- responses ----- */

export const apiKeyView = z.object({
  id: z.number().int(),
  /** The key's first characters (`fpk_` and 8 more): the `apiId` header, and how people tell keys apart. */
  prefix: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  organisationId: z.number().int().nullable(),
  organisationName: z.string(),
  /** Whom the key acts as. */
  userId: z.number().int(),
  userEmail: z.string(),
  status: z.enum(API_KEY_STATUSES),
  createdAt: timestamp,
  lastUsedAt: timestamp.nullable(),
  revokedAt: timestamp.nullable(),
});

export const apiKeyListView = pageOf(apiKeyView);

/** The answer of create: the key itself, shown this once and never again. */
export const apiKeyCreatedView = apiKeyView.extend({ key: z.string() });

/** `/shipment/uploadapi`: each row `success` or its message, and the orders booked (none if any row failed). */
export const uploadApiView = z.object({
  rows: z.record(z.string(), z.string()),
  orders: z.array(z.object({ id: z.number().int(), orderNo: z.string() })),
});

/* ----- webhooks ----- */

/** The page that keeps webhook endpoints and shows their deliveries (menu id 152). */
export const WEBHOOKS_PAGE = '/webhooks';

/** What an endpoint may subscribe to; `ping` is only ever sent by the test button. */
export const WEBHOOK_EVENTS = ['order.status', 'waybill.status'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number] | 'ping';

/**
 * The headers of every delivery. The signature is `sha256=` and the hex HMAC of `timestamp.body`; for a
 * day after the secret is rotated it holds two, comma-separated, the new secret's first, and a receiver
 * accepts the delivery when one of them matches.
 */
export const WEBHOOK_HEADERS = {
  id: 'x-webhook-id',
  timestamp: 'x-webhook-timestamp',
  signature: 'x-webhook-signature',
} as const;

/**
 * How far a delivery's timestamp may be from the receiver's clock before it is refused as a replay.
 * Every try is signed anew when it is sent, so a retry is never older than this.
 */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * A receiver's check of a delivery, shown on the webhooks page as it is (a server test runs it against
 * real deliveries): the signature over `timestamp.body` with either secret, the timestamp within the
 * tolerance, and a delivery id not handled before (a retry of a handled delivery carries the same id).
 */
export const WEBHOOK_VERIFY_SNIPPET = `import { createHmac, timingSafeEqual } from 'node:crypto';

const TOLERANCE_SECONDS = ${WEBHOOK_TOLERANCE_SECONDS};
// Ids of deliveries already handled; keep each at least TOLERANCE_SECONDS (a database table in production).
const handled = new Set();

/** Answers 'ok', or why the delivery must be dropped. rawBody is the request body exactly as received. */
export function checkDelivery(secret, headers, rawBody, nowMs = Date.now()) {
  const id = headers['${WEBHOOK_HEADERS.id}'];
  const timestamp = Number(headers['${WEBHOOK_HEADERS.timestamp}']);
  if (!Number.isFinite(timestamp) || Math.abs(nowMs / 1000 - timestamp) > TOLERANCE_SECONDS) return 'stale';
  const expected = Buffer.from(
    'sha256=' + createHmac('sha256', secret).update(timestamp + '.' + rawBody).digest('hex'),
  );
  const signatures = String(headers['${WEBHOOK_HEADERS.signature}'] ?? '').split(',');
  const signed = signatures.some(
    (s) => s.length === expected.length && timingSafeEqual(Buffer.from(s), expected),
  );
  if (!signed) return 'bad signature';
  if (handled.has(id)) return 'repeat';
  handled.add(id); // after you have acted on it, so a failed delivery can be tried again
  return 'ok';
}
`;

/** How long the secret a rotation replaced still signs deliveries, so receivers can switch over. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;
/** Deliveries (and their log) are kept this many days, then swept. */
export const WEBHOOK_DELIVERY_KEEP_DAYS = 30;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** An organisation keeps at most this many endpoints. */
export const MAX_WEBHOOKS_PER_ORGANISATION = 10;

const webhookUrl = str()
  .trim()
  .min(1, { error: 'validation.required' })
  .max(500)
  .refine(
    (v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '' && !u.username;
      } catch {
        return false;
      }
    },
    { error: 'webhook.urlInvalid' },
  );

const webhookEvents = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1, { error: 'validation.required' })
  .max(WEBHOOK_EVENTS.length)
  .refine((list) => new Set(list).size === list.length, { error: 'validation.invalid' });

export const webhookListQuery = pageQuery.extend({ keyword: str().trim().max(100).optional() });
export type WebhookListQuery = z.infer<typeof webhookListQuery>;

export const webhookCreateBody = z.object({
  url: webhookUrl,
  events: webhookEvents,
  enabled: z.boolean().default(true),
});
export type WebhookCreateBody = z.infer<typeof webhookCreateBody>;

export const webhookUpdateBody = z.object({
  id: idField(),
  url: webhookUrl.optional(),
  events: webhookEvents.optional(),
  enabled: z.boolean().optional(),
});
export type WebhookUpdateBody = z.infer<typeof webhookUpdateBody>;

export const webhookIdBody = z.object({ id: idField() });

export const webhookDeliveryListQuery = pageQuery.extend({
  endpointId: idField().optional(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});
export type WebhookDeliveryListQuery = z.infer<typeof webhookDeliveryListQuery>;

export const webhookView = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  organisationId: z.number().int().nullable(),
  organisationName: z.string(),
  /** The secret's first characters, so its owner can tell which one a receiver holds. */
  secretPrefix: z.string(),
  /** After a rotation, until when deliveries are also signed with the secret it replaced. */
  previousSecretUntil: timestamp.nullable(),
  createdAt: timestamp,
});
export const webhookListView = pageOf(webhookView);

/** The answer of create and of a rotation: the signing secret, shown this once. */
export const webhookCreatedView = webhookView.extend({ secret: z.string() });

export const webhookDeliveryView = z.object({
  id: z.number().int(),
  endpointId: z.number().int(),
  url: z.string(),
  event: z.string(),
  payload: z.unknown(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: timestamp.nullable(),
  deliveredAt: timestamp.nullable(),
  createdAt: timestamp,
});
export const webhookDeliveryListView = pageOf(webhookDeliveryView);
