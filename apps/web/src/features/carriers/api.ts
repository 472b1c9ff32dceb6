import type {
  CarrierAccountCreateBody,
  CarrierAccountUpdateBody,
  carrierAccountView,
  carrierConnectionTestView,
} from '@freight/contracts/carriers';
import type { Wire } from '@freight/contracts/responses';
import { post } from '../../lib/http.ts';

export const CARRIER_ACCOUNT_LIST_URL = '/admin/carrierAccount/list';

export type CarrierAccountRow = Wire<typeof carrierAccountView>;
export type ConnectionTest = Wire<typeof carrierConnectionTestView>;

export const carrierAccountApi = {
  create: (body: CarrierAccountCreateBody) => post<CarrierAccountRow>('/admin/carrierAccount/create', body),
  update: (body: CarrierAccountUpdateBody) => post<CarrierAccountRow>('/admin/carrierAccount/update', body),
  remove: (id: number) => post<{ id: number }>('/admin/carrierAccount/delete', { id }),
  testConnection: (id: number) => post<ConnectionTest>('/admin/carrierAccount/test', { id }),
  registerWebhook: (id: number) => post<CarrierAccountRow>('/admin/carrierAccount/registerWebhook', { id }),
  removeWebhook: (id: number) => post<CarrierAccountRow>('/admin/carrierAccount/removeWebhook', { id }),
};
