import { z } from 'zod';
import type { Language } from './api.ts';
import { pageQuery } from './api.ts';
import { type ExpressAddress, expressAddressBody, expressAddressView } from './express-quotes.ts';
import { ORGANISATION_TYPES } from './identity.ts';
import { listOf, pageOf, timestamp } from './responses.ts';
import { ADDRESS_TYPES, type ShipmentAddress, shipmentAddress } from './truck-shipment.ts';
import { queryId, str, zipField } from './validation.ts';

/** The address fields the book stores: those of the quote form, without the form's own checkbox. */
export type BookAddress = Omit<ShipmentAddress, 'saveToBook'>;

/** One entry of the truck address book (`/addressmanagement`), as the list and the picker return it. */
export interface AddressBookEntry extends BookAddress {
  id: number;
  organisationId: number;
  /** The owner's name, for staff and parents who see several organisations' books. */
  organisationName: string;
  isDefaultPickup: boolean;
  createdAt: string;
  updatedAt: string;
}

export const addressListQuery = pageQuery.extend({
  /** Name (the company at the address), address, city, ZIP or contact. */
  keyword: str().trim().max(100).optional(),
  addressType: z.enum(ADDRESS_TYPES).optional(),
  /** Staff and parents narrow the list to one organisation's book. */
  organisationId: z.number().int().positive().optional(),
});
export type AddressListQuery = z.infer<typeof addressListQuery>;

/** Create (no id) or update: the quote form's rules, plus whose book and whether it is the default pickup. */
export const addressSaveBody = shipmentAddress.safeExtend({
  id: z.number().int().positive().optional(),
  /** Whose book; the caller's own organisation when left out. Staff, who have none, must name one. */
  organisationId: z.number().int().positive().optional(),
  isDefaultPickup: z.boolean().default(false),
});
export type AddressSaveBody = z.input<typeof addressSaveBody>;

export const addressSetDefaultBody = z.object({
  id: z.number().int().positive(),
  /** False takes the mark away, leaving the organisation without a default pickup address. */
  isDefault: z.boolean().default(true),
});

export const addressDefaultBody = z.object({ organisationId: z.number().int().positive().optional() });

/** The import's query string: whose book the file goes to (staff must say; others default to their own). */
export const addressImportQuery = z.object({ organisationId: queryId().optional() });

export const zipLookupBody = z.object({ zipcode: zipField });
export interface ZipPlace {
  zipcode: string;
  city: string;
  state: string;
  country: string;
}

export const fbaLookupBody = z.object({ keyword: str().trim().max(50).optional() });

/** Rows one import may carry; a bigger book is imported in several files. */
export const MAX_IMPORT_ROWS = 5_000;

/**
 * The columns of the import template, export and import, in this order. The template's header row is in
 * the caller's language; an import accepts either language's headers.
 */
export const ADDRESS_COLUMNS: readonly { field: keyof BookAddress; label: Record<Language, string> }[] = [
  { field: 'name', label: { 'zh-CN': '地址名称', 'en-US': 'Address name' } },
  { field: 'address1', label: { 'zh-CN': '地址 1', 'en-US': 'Address 1' } },
  { field: 'address2', label: { 'zh-CN': '地址 2', 'en-US': 'Address 2' } },
  { field: 'zipcode', label: { 'zh-CN': '邮编', 'en-US': 'ZIP code' } },
  { field: 'city', label: { 'zh-CN': '城市', 'en-US': 'City' } },
  { field: 'state', label: { 'zh-CN': '州', 'en-US': 'State' } },
  { field: 'country', label: { 'zh-CN': '国家', 'en-US': 'Country' } },
  { field: 'contact', label: { 'zh-CN': '联系人', 'en-US': 'Contact' } },
  { field: 'dialCode', label: { 'zh-CN': '区号', 'en-US': 'Dial code' } },
  { field: 'phone', label: { 'zh-CN': '电话', 'en-US': 'Phone' } },
  { field: 'email', label: { 'zh-CN': '邮箱', 'en-US': 'E-mail' } },
  { field: 'windowStart', label: { 'zh-CN': '提货开始时间', 'en-US': 'Window start' } },
  { field: 'windowEnd', label: { 'zh-CN': '提货结束时间', 'en-US': 'Window end' } },
  { field: 'addressType', label: { 'zh-CN': '地址类型', 'en-US': 'Address type' } },
  { field: 'fbaCode', label: { 'zh-CN': 'FBA 仓库代码', 'en-US': 'FBA code' } },
];

/** Address type names, for the template's notes, the export and the page. */
export const ADDRESS_TYPE_LABELS: Record<(typeof ADDRESS_TYPES)[number], Record<Language, string>> = {
  business: { 'zh-CN': '商业地址', 'en-US': 'Business' },
  residential: { 'zh-CN': '住宅地址', 'en-US': 'Residential' },
  warehouse: { 'zh-CN': '仓库', 'en-US': 'Warehouse' },
  fba: { 'zh-CN': '亚马逊 FBA 仓', 'en-US': 'Amazon FBA' },
  construction: { 'zh-CN': '工地', 'en-US': 'Construction site' },
};

/* ----- responses ----- */

/** One entry of the address book as the API answers it (`AddressBookEntry`). */
export const addressBookEntryView = z.object({
  id: z.number().int(),
  organisationId: z.number().int(),
  name: z.string(),
  address1: z.string(),
  address2: z.string(),
  zipcode: z.string(),
  city: z.string(),
  state: z.string(),
  country: z.string(),
  contact: z.string(),
  dialCode: z.string(),
  phone: z.string(),
  email: z.string(),
  windowStart: z.string(),
  windowEnd: z.string(),
  addressType: z.enum(ADDRESS_TYPES),
  fbaCode: z.string(),
  isDefaultPickup: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
  organisationName: z.string(),
});
export const addressListView = pageOf(addressBookEntryView);
export const defaultPickupView = addressBookEntryView.nullable();

export const addressOwnersView = listOf(
  z.object({ id: z.number().int(), name: z.string(), type: z.enum(ORGANISATION_TYPES) }),
);
export const addressImportedView = z.object({ imported: z.number().int() });

export const zipPlacesView = z.array(
  z.object({ zipcode: z.string(), city: z.string(), state: z.string(), country: z.string() }),
);
export const fbaWarehousesView = z.array(
  z.object({
    code: z.string(),
    name: z.string(),
    address1: z.string(),
    city: z.string(),
    state: z.string(),
    zipcode: z.string(),
    country: z.string(),
  }),
);

/* ---------- the express address book (`/addressList`) ---------- */

/**
 * What an express address is for: the parcels' senders, their usual recipients, and the places
 * returned parcels go back to. Each entry has one kind; the pages that pick an address list one kind.
 */
export const EXPRESS_ADDRESS_KINDS = ['sender', 'recipient', 'return'] as const;
export type ExpressAddressKind = (typeof EXPRESS_ADDRESS_KINDS)[number];

export const EXPRESS_ADDRESS_KIND_LABELS: Record<ExpressAddressKind, Record<Language, string>> = {
  sender: { 'zh-CN': '发件地址', 'en-US': 'Sender' },
  recipient: { 'zh-CN': '收件地址', 'en-US': 'Recipient' },
  return: { 'zh-CN': '退货地址', 'en-US': 'Return address' },
};

/** The fields an express book entry keeps: one end of a parcel shipment, as the express quote takes it. */
export type ExpressBookAddress = ExpressAddress;

export interface ExpressAddressEntry extends ExpressBookAddress {
  id: number;
  organisationId: number;
  organisationName: string;
  kind: ExpressAddressKind;
  /** The organisation's default of this kind: the quote's sender starts from the default sender. */
  isDefault: boolean;
  createdAt: string;
  updatedAt: string;
}

const countryFilter = str()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, { error: 'express.country' });

export const expressAddressListQuery = pageQuery.extend({
  /** Name, company, address, city, ZIP or phone. */
  keyword: str().trim().max(100).optional(),
  kind: z.enum(EXPRESS_ADDRESS_KINDS).optional(),
  country: countryFilter.optional(),
  state: str().trim().toUpperCase().max(60).optional(),
  /** Staff and parents narrow the list to one organisation's book. */
  organisationId: z.number().int().positive().optional(),
});
export type ExpressAddressListQuery = z.infer<typeof expressAddressListQuery>;

/** Create (no id) or update: the express quote's address rules, plus whose book, the kind and the default mark. */
export const expressAddressSaveBody = expressAddressBody.safeExtend({
  id: z.number().int().positive().optional(),
  /** Whose book; the caller's own organisation when left out. Staff, who have none, must name one. */
  organisationId: z.number().int().positive().optional(),
  kind: z.enum(EXPRESS_ADDRESS_KINDS),
  isDefault: z.boolean().default(false),
});
export type ExpressAddressSaveBody = z.input<typeof expressAddressSaveBody>;

export const expressAddressDefaultBody = z.object({
  id: z.number().int().positive(),
  isDefault: z.boolean().default(true),
});

/** The import's query string: whose book the file goes to (staff must say; others default to their own). */
export const expressAddressImportQuery = z.object({ organisationId: queryId().optional() });

/** `address/listOptions`: which kind of entry a picker lists; senders when left out. */
export const expressAddressOptionsQuery = z.object({
  organisationId: queryId().optional(),
  kind: z.enum(['sender', 'recipient'] as const).optional(),
});

export const expressAddressEntryView = z.object({
  id: z.number().int(),
  organisationId: z.number().int(),
  organisationName: z.string(),
  kind: z.enum(EXPRESS_ADDRESS_KINDS),
  ...expressAddressView.shape,
  isDefault: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export const expressAddressListView = pageOf(expressAddressEntryView);
