import type { Language } from '@freight/contracts/api';
import { COUNTRIES, DEFAULT_DIAL_CODE } from '@freight/contracts/countries';
import {
  type CustomsContents,
  crossesBorder,
  customsBody,
  customsIssues,
  customsItemBody,
  expressAddressBody,
  expressShipmentBody,
  type Incoterm,
  parcelBody,
} from '@freight/contracts/express-quotes';
import { localizeIssues } from '@freight/contracts/validation';
import type { FormRule } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import i18n from '../../i18n/index.ts';
import type { AddressOption, ExpressQuoteView, FbaWarehouse, PricedResult, QuoteBody } from './api.ts';

/**
 * The quote form holds the body of `quotation/getQuotas` as it is, so a 400 naming `sender.zipcode`
 * or `parcels.1.weight` lands on the field of that name, and the form's rules are the contract's
 * schemas (`expressAddressBody`, `parcelBody`, `customsBody`), which refuse exactly what the server
 * refuses. The customs stay in the form while the parcel stays in one country, but are sent only
 * when it crosses a border.
 */

export type Side = 'sender' | 'recipient';
export type AddressValues = Required<QuoteBody['sender']>;
export type ParcelValues = Required<QuoteBody['parcels'][number]>;
type CustomsBody = NonNullable<QuoteBody['customs']>;
/** A customs line as typed: numbers the user has not given yet are missing. */
export interface CustomsItemValues {
  description: string;
  hsCode: string;
  originCountry: string | undefined;
  quantity: number | undefined;
  unitValue: string;
  weight: number | undefined;
}
export interface CustomsValues {
  /** Chosen by the user: a declaration names its contents, no default stands in for them. */
  contentsType: CustomsContents | undefined;
  items: CustomsItemValues[];
  currency: string;
  incoterm: Incoterm;
  senderTaxId: string;
  receiverTaxId: string;
}
export interface QuoteFormValues {
  /** The customer the quote is for; staff and parents choose it, a customer quotes for itself. */
  organisationId?: number;
  sender: AddressValues;
  recipient: AddressValues;
  unitSystem: NonNullable<QuoteBody['unitSystem']>;
  parcels: ParcelValues[];
  signature: boolean;
  reference: string;
  customs: CustomsValues;
  /** The day it ships; empty for today. */
  shipDate?: Dayjs | null;
}

export const emptyAddress = (): AddressValues => ({
  name: '',
  company: '',
  address1: '',
  address2: '',
  city: '',
  state: '',
  zipcode: '',
  country: 'US',
  dialCode: DEFAULT_DIAL_CODE,
  phone: '',
  email: '',
  residential: false,
});

/** A new parcel row: one piece, no declared value; the sizes and weight are the user's to give. */
export const emptyParcel = () => ({
  quantity: 1,
  declaredValue: '',
  description: '',
  packaging: 'box' as const,
});

/** A new customs line: one piece; what it is, its value and weight are the user's to give. */
export const emptyCustomsItem = (): CustomsItemValues => ({
  description: '',
  hsCode: '',
  originCountry: undefined,
  quantity: 1,
  unitValue: '',
  weight: undefined,
});

/** The contract's defaults (USD, DAP) and one line to fill, as most parcels abroad are goods. */
export const emptyCustoms = (): CustomsValues => ({
  contentsType: undefined,
  items: [emptyCustomsItem()],
  currency: 'USD',
  incoterm: 'DAP',
  senderTaxId: '',
  receiverTaxId: '',
});

export const initialValues = (): Partial<QuoteFormValues> => ({
  sender: emptyAddress(),
  recipient: emptyAddress(),
  unitSystem: 'lb_in',
  parcels: [emptyParcel() as ParcelValues],
  signature: false,
  reference: '',
  customs: emptyCustoms(),
});

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** An address as the API takes it: trimmed, the defaults of the contract filled in. */
export function toAddress(value: Partial<AddressValues> | undefined): AddressValues {
  return {
    name: text(value?.name),
    company: text(value?.company),
    address1: text(value?.address1),
    address2: text(value?.address2),
    city: text(value?.city),
    state: text(value?.state),
    zipcode: text(value?.zipcode).toUpperCase(),
    country: text(value?.country).toUpperCase() || 'US',
    dialCode: text(value?.dialCode) || DEFAULT_DIAL_CODE,
    // Spaces and dashes people type between the digits are not part of the number.
    phone: text(value?.phone).replace(/[\s\-()]/g, ''),
    email: text(value?.email),
    residential: Boolean(value?.residential),
  };
}

/** A parcel row as the API takes it; an empty size stays empty, so the rule says it is required. */
export function toParcel(value: Partial<ParcelValues> | undefined): ParcelValues {
  return {
    quantity: value?.quantity as number,
    length: value?.length as number,
    width: value?.width as number,
    height: value?.height as number,
    weight: value?.weight as number,
    declaredValue: text(value?.declaredValue) || '0',
    description: text(value?.description),
    packaging: value?.packaging ?? 'box',
  };
}

/**
 * Text the contract requires, blank left out: the schema then says the field is required rather than
 * that an empty code is malformed. The cast keeps the body's type; the rules refuse it before sending.
 */
const requiredText = (value: unknown) => (text(value) || undefined) as string;

/** A customs line as the API takes it; the HS code as typed, dots and spaces are the contract's to drop. */
export function toCustomsItem(
  value: Partial<CustomsItemValues> | undefined,
): NonNullable<CustomsBody['items']>[number] {
  return {
    description: requiredText(value?.description),
    hsCode: requiredText(value?.hsCode),
    originCountry: requiredText(value?.originCountry),
    quantity: value?.quantity as number,
    unitValue: requiredText(value?.unitValue),
    weight: value?.weight as number,
  };
}

/** The declaration as the API takes it: trimmed, the currency in capitals. */
export function toCustoms(value: Partial<CustomsValues> | undefined): Required<CustomsBody> {
  return {
    contentsType: value?.contentsType as CustomsContents,
    items: (value?.items ?? []).map(toCustomsItem),
    currency: text(value?.currency).toUpperCase(),
    incoterm: value?.incoterm ?? 'DAP',
    senderTaxId: text(value?.senderTaxId),
    receiverTaxId: text(value?.receiverTaxId),
  };
}

/** The body of `quotation/getQuotas` from the form's values; customs only for a parcel going abroad. */
export function toBody(values: Partial<QuoteFormValues> | undefined): QuoteBody {
  const sender = toAddress(values?.sender);
  const recipient = toAddress(values?.recipient);
  return {
    organisationId: values?.organisationId || undefined,
    sender,
    recipient,
    unitSystem: values?.unitSystem ?? 'lb_in',
    parcels: (values?.parcels ?? []).map(toParcel),
    signature: Boolean(values?.signature),
    reference: text(values?.reference),
    shipDate: values?.shipDate ? values.shipDate.format('YYYY-MM-DD') : '',
    ...(crossesBorder({ sender, recipient }) ? { customs: toCustoms(values?.customs) } : {}),
  };
}

/** What a quote was priced for: two forms with the same key ask for the same prices. */
export const shipmentKey = (values: Partial<QuoteFormValues> | undefined) => JSON.stringify(toBody(values));

/** A saved quote back in the form; the customer only where the page lets the user choose one. */
export function fromQuote(quote: ExpressQuoteView, withCustomer: boolean): QuoteFormValues {
  return {
    ...quote.shipment,
    parcels: quote.shipment.parcels.map((p) => ({ ...p, packaging: p.packaging ?? 'box' })),
    shipDate: quote.shipment.shipDate ? dayjs(quote.shipment.shipDate) : null,
    // A quote within one country has none; the form keeps a fresh one should the recipient move abroad.
    customs: quote.shipment.customs ?? emptyCustoms(),
    organisationId: withCustomer ? quote.organisationId : undefined,
  };
}

/** A sender or recipient from an express address-book entry: its contact is the name on the label. */
export function fromAddressOption(option: AddressOption): AddressValues {
  return {
    name: option.contact || option.name,
    company: option.company,
    address1: option.address1,
    address2: option.address2,
    city: option.city,
    state: option.province_code,
    zipcode: option.zipcode,
    country: option.country || 'US',
    dialCode: option.dialCode || DEFAULT_DIAL_CODE,
    phone: option.phone,
    email: option.email,
    residential: option.residential,
  };
}

/** An FBA warehouse as the recipient: its address; the phone and e-mail stay the shipper's to give. */
export const fromFba = (warehouse: FbaWarehouse): Partial<AddressValues> => ({
  name: warehouse.name,
  company: 'Amazon',
  address1: warehouse.address1,
  address2: '',
  city: warehouse.city,
  state: warehouse.state,
  zipcode: warehouse.zipcode,
  country: warehouse.country,
  residential: false,
});

/** Countries a parcel may go to (the list's "other" entry has no code, so it cannot be sent). */
export const SHIPPING_COUNTRIES = COUNTRIES.filter((c) => c.short !== '');
export const DIAL_CODES = [...new Set(SHIPPING_COUNTRIES.map((c) => c.tel))].sort(
  (a, b) => Number(a) - Number(b),
);
export const dialCodeOf = (country: string) => COUNTRIES.find((c) => c.short === country)?.tel;

/** The units the parcels are given in, for labels. */
export const unitsOf = (system: string | undefined) =>
  system === 'kg_cm' ? { weight: 'kg', length: 'cm' } : { weight: 'lb', length: 'in' };

/** The caller's own price: the last price level it may see. */
export const priceOf = (result: PricedResult) => result.levels[result.levels.length - 1];

/* ---------- rules: the contract's schemas, worded with the page's labels ---------- */

type Issues = Parameters<typeof localizeIssues>[0];
interface Schema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: Issues } };
}

/**
 * The message of the first issue `schema` finds in `value` at `key` (the whole value when null). The
 * page's label stands in for the path, which the shared wording names the field by.
 */
function issueAt(schema: Schema, value: unknown, key: string | null, label: string): string | undefined {
  const result = schema.safeParse(value);
  if (result.success) return undefined;
  const issue = result.error.issues.find((i) => key === null || i.path[0] === key);
  return issue ? worded(issue, label) : undefined;
}

/** An issue's message in the page's language, naming the field by `label`. */
const worded = (issue: Issues[number], label: string) =>
  localizeIssues([{ ...issue, path: [label] }], i18n.language as Language)[0]?.message;

/**
 * A field of the sender or the recipient, checked with the whole address, so the rules that tie
 * fields together (a US address needs a five-digit ZIP and a state code) apply as the server applies them.
 */
export function addressRule(side: Side, key: keyof AddressValues, label: string): FormRule {
  return ({ getFieldValue }) => ({
    validator: async () => {
      const message = issueAt(expressAddressBody, toAddress(getFieldValue(side)), key, label);
      if (message) throw new Error(message);
    },
  });
}

export function parcelRule(index: number, key: keyof ParcelValues, label: string): FormRule {
  return ({ getFieldValue }) => ({
    validator: async () => {
      const message = issueAt(parcelBody, toParcel(getFieldValue(['parcels', index])), key, label);
      if (message) throw new Error(message);
    },
  });
}

export function referenceRule(label: string): FormRule {
  return {
    validator: async (_, value: unknown) => {
      const message = issueAt(expressShipmentBody.shape.reference, text(value), null, label);
      if (message) throw new Error(message);
    },
  };
}

type CustomsField = Exclude<keyof CustomsValues, 'items'>;

/** A field of the customs declaration, checked with the whole declaration as the server checks it. */
export function customsRule(key: CustomsField, label: string): FormRule {
  return ({ getFieldValue }) => ({
    validator: async () => {
      const message = issueAt(customsBody, toCustoms(getFieldValue('customs')), key, label);
      if (message) throw new Error(message);
    },
  });
}

export function customsItemRule(index: number, key: keyof CustomsItemValues, label: string): FormRule {
  return ({ getFieldValue }) => ({
    validator: async () => {
      const item = toCustomsItem(getFieldValue(['customs', 'items', index]));
      const message = issueAt(customsItemBody, item, key, label);
      if (message) throw new Error(message);
    },
  });
}

/**
 * The customs lines as a whole: goods abroad list one at least, documents need none (`customsIssues`).
 * A list's rules are plain validators, so the form's values are read through `getFieldValue`.
 */
export function customsItemsRule(getFieldValue: (name: string) => unknown, label: string) {
  return {
    validator: async () => {
      const issue = customsIssues({
        sender: toAddress(getFieldValue('sender') as Partial<AddressValues>),
        recipient: toAddress(getFieldValue('recipient') as Partial<AddressValues>),
        customs: toCustoms(getFieldValue('customs') as Partial<CustomsValues>),
      }).find((i) => i.path[1] === 'items');
      const message = issue && worded({ code: 'custom', input: undefined, ...issue }, label);
      if (message) throw new Error(message);
    },
  };
}
