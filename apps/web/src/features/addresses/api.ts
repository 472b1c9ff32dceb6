import type { AddressBookEntry, AddressSaveBody, ZipPlace } from '@freight/contracts/addresses';
import type { FbaWarehouse } from '@freight/contracts/fba-warehouses';
import { post } from '../../lib/http.ts';

export type { AddressBookEntry };

export const ADDRESS_LIST_URL = '/admin/address/list';

export interface AddressOwner {
  id: number;
  name: string;
  type: 'branch' | 'agent' | 'customer';
}

export const addressApi = {
  save: (body: AddressSaveBody) => post<{ id: number }>('/admin/address/save', body),
  remove: (id: number) => post('/admin/address/delete', { id }),
  setDefault: (id: number, isDefault = true) => post('/admin/address/setDefault', { id, isDefault }),
  /** The default pickup address the quote form starts from; null when there is none. */
  defaultPickup: (organisationId?: number) =>
    post<AddressBookEntry | null>('/admin/address/default', organisationId ? { organisationId } : {}),
  owners: () => post<{ list: AddressOwner[] }>('/admin/address/owners'),
  placesOfZip: (zipcode: string) => post<ZipPlace[]>('/admin/address/getListByZipcode', { zipcode }),
  fbaWarehouses: (keyword?: string) =>
    post<FbaWarehouse[]>('/admin/address/getAmazonAddress', keyword ? { keyword } : {}),
};
