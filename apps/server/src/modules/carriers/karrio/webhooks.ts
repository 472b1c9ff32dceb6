import { z } from 'zod';
import type { CarrierConnection } from '../connection.ts';
import { callCarrier } from '../http.ts';
import { authorization, karrioErrorText } from './client.ts';

/**
 * The tracking webhook the portal keeps at a Karrio server: `POST /v1/webhooks` subscribes a URL to
 * tracker events and answers the secret Karrio will send with each of them (in `X-Event-Id`);
 * `DELETE /v1/webhooks/{id}` ends it. Requests follow test/fixtures/carriers/karrio/openapi.yml.
 */

/** The events a tracking webhook asks for: Karrio sends nothing else to it. */
export const KARRIO_WEBHOOK_EVENTS = ['tracker_updated'] as const;

const createdWebhook = z.object({
  id: z.string().min(1),
  // Karrio makes it long and random; a short one could be guessed, so it is taken for a broken answer.
  secret: z.string().min(16),
});

export interface KarrioWebhook {
  id: string;
  secret: string;
}

/** Subscribes `url` to the account's tracker events at Karrio. */
export async function karrioCreateWebhook(
  connection: CarrierConnection,
  url: string,
  description: string,
): Promise<KarrioWebhook> {
  return callCarrier(connection, {
    method: 'POST',
    path: '/v1/webhooks',
    headers: authorization(connection),
    body: { json: { url, description, enabled_events: [...KARRIO_WEBHOOK_EVENTS] } },
    answer: createdWebhook,
    errorText: karrioErrorText,
  });
}

/** Ends a webhook at Karrio; one Karrio no longer has is ended all the same. */
export async function karrioDeleteWebhook(connection: CarrierConnection, id: string): Promise<void> {
  await callCarrier(connection, {
    method: 'DELETE',
    path: `/v1/webhooks/${encodeURIComponent(id)}`,
    headers: authorization(connection),
    answer: z.unknown(),
    errorText: karrioErrorText,
    settle: (status) => (status === 404 ? null : undefined),
  });
}
