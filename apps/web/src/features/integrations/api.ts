import type {
  ApiKeyCreateBody,
  apiKeyCreatedView,
  apiKeyView,
  WebhookCreateBody,
  WebhookUpdateBody,
  webhookCreatedView,
  webhookDeliveryView,
  webhookView,
} from '@freight/contracts/integrations';
import type { Wire } from '@freight/contracts/responses';
import { post } from '../../lib/http.ts';

export const API_KEY_LIST_URL = '/admin/apiKey/list';

export type ApiKeyRow = Wire<typeof apiKeyView>;
export type CreatedApiKey = Wire<typeof apiKeyCreatedView>;

export const apiKeyApi = {
  create: (body: ApiKeyCreateBody) => post<CreatedApiKey>('/admin/apiKey/create', body),
  revoke: (id: number) => post<ApiKeyRow>('/admin/apiKey/revoke', { id }),
};

export const WEBHOOK_LIST_URL = '/admin/webhook/list';
export const WEBHOOK_DELIVERY_LIST_URL = '/admin/webhook/deliveries';

export type WebhookRow = Wire<typeof webhookView>;
export type CreatedWebhook = Wire<typeof webhookCreatedView>;
export type WebhookDeliveryRow = Wire<typeof webhookDeliveryView>;

export const webhookApi = {
  create: (body: WebhookCreateBody) => post<CreatedWebhook>('/admin/webhook/create', body),
  update: (body: WebhookUpdateBody) => post<WebhookRow>('/admin/webhook/update', body),
  remove: (id: number) => post<{ id: number }>('/admin/webhook/delete', { id }),
  test: (id: number) => post<{ id: number }>('/admin/webhook/test', { id }),
  redeliver: (id: number) => post<{ id: number }>('/admin/webhook/redeliver', { id }),
  rotateSecret: (id: number) => post<CreatedWebhook>('/admin/webhook/rotateSecret', { id }),
};
