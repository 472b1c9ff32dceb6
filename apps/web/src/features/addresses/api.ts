import type {
  AddressBookEntry,
  AddressSaveBody,
  addressOwnersView,
  ExpressAddressEntry,
  ExpressAddressSaveBody,
  fbaWarehousesView,
  zipPlacesView,
} from '@freight/contracts/addresses';
import type { addressCheckedView } from '@freight/contracts/express-quotes';
import type { Wire } from '@freight/contracts/responses';
import type { savedIdView } from '@freight/contracts/roles';
import { post } from '../../lib/http.ts';

export type { AddressBookEntry };

export const ADDRESS_LIST_URL = '/admin/address/list';

export type AddressOwner = Wire<typeof addressOwnersView>['list'][number];

export const addressApi = {
  save: (body: AddressSaveBody) => post<Wire<typeof savedIdView>>('/admin/address/save', body),
  remove: (id: number) => post('/admin/address/delete', { id }),
  setDefault: (id: number, isDefault = true) => post('/admin/address/setDefault', { id, isDefault }),
  /** The default pickup address the quote form starts from; null when there is none. */
  defaultPickup: (organisationId?: number) =>
    post<AddressBookEntry | null>('/admin/address/default', organisationId ? { organisationId } : {}),
  owners: () => post<Wire<typeof addressOwnersView>>('/admin/address/owners'),
  placesOfZip: (zipcode: string) =>
    post<Wire<typeof zipPlacesView>>('/admin/address/getListByZipcode', { zipcode }),
  fbaWarehouses: (keyword?: string) =>
    post<Wire<typeof fbaWarehousesView>>('/admin/address/getAmazonAddress', keyword ? { keyword } : {}),
};

/* ---------- the express address book (`/addressList`) ---------- */

export type { ExpressAddressEntry };

export const EXPRESS_ADDRESS_LIST_URL = '/express/address/list';

export const expressAddressApi = {
  save: (body: ExpressAddressSaveBody) => post<Wire<typeof savedIdView>>('/express/address/save', body),
  remove: (id: number) => post('/express/address/delete', { id }),
  setDefault: (id: number, isDefault = true) => post('/express/address/setDefault', { id, isDefault }),
  /** A US ZIP, city and state that disagree answer 400 with the field at fault. */
  check: (body: { zipcode: string; city: string; state: string; country: string }) =>
    post<Wire<typeof addressCheckedView>>('/express/address/check', body),
};
