import type { ApiKeyCreateBody, apiKeyCreatedView, apiKeyView } from '@freight/contracts/integrations';
import type { Wire } from '@freight/contracts/responses';
import { post } from '../../lib/http.ts';

export const API_KEY_LIST_URL = '/admin/apiKey/list';

export type ApiKeyRow = Wire<typeof apiKeyView>;
export type CreatedApiKey = Wire<typeof apiKeyCreatedView>;

export const apiKeyApi = {
  create: (body: ApiKeyCreateBody) => post<CreatedApiKey>('/admin/apiKey/create', body),
  revoke: (id: number) => post<ApiKeyRow>('/admin/apiKey/revoke', { id }),
};
