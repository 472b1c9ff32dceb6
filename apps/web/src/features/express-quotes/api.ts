import type { fbaWarehousesView } from '@freight/contracts/addresses';
import type { quotationConfigBody, userConfigView } from '@freight/contracts/auth';
import type {
  addressCheckBody,
  addressCheckedView,
  expressAddressOptionsView,
  expressOptionsView,
  expressQuoteListQuery,
  expressQuoteSaveBody,
  expressQuoteSavedView,
  expressQuoteView,
  expressRateLine,
  expressResultView,
  expressSelectedView,
} from '@freight/contracts/express-quotes';
import type { waybillCreateBody, waybillCreatedView } from '@freight/contracts/express-waybills';
import type { Wire } from '@freight/contracts/responses';
import type { z } from 'zod';
import { get, post, postStream } from '../../lib/http.ts';

export const EXPRESS_QUOTE_LIST_URL = '/express/quotation/list';

/** A quote; `actions` are what this user may do with it now, as the server decides. */
export type ExpressQuoteView = Wire<typeof expressQuoteView>;
/** One channel's answer: priced (`ok: true`, money as decimal strings) or refused with a reason. */
export type ExpressResult = Wire<typeof expressResultView>;
export type PricedResult = Extract<ExpressResult, { ok: true }>;
export type RateLine = Wire<typeof expressRateLine>;
export type ExpressOptions = Wire<typeof expressOptionsView>;
export type AddressOption = Wire<typeof expressAddressOptionsView>['list'][number];
export type FbaWarehouse = Wire<typeof fbaWarehousesView>[number];
export type QuoteBody = z.input<typeof expressQuoteSaveBody>;
export type QuoteListFilters = Omit<z.input<typeof expressQuoteListQuery>, 'page' | 'limit'>;
type AddressCheck = z.input<typeof addressCheckBody>;
type BookBody = z.input<typeof waybillCreateBody>;

/** The shipping addresses of the organisation a quote is for (the caller's own when not named). */
const bookQuery = (organisationId?: number) => (organisationId ? `?organisationId=${organisationId}` : '');

/** Express quotes (server module `express-quotes`) and the address calls the quote form fills from. */
export const expressQuoteApi = {
  options: () => get<ExpressOptions>('/express/quotation/options'),
  shipFrom: (organisationId?: number) =>
    get<Wire<typeof expressAddressOptionsView>>(`/express/address/listOptions${bookQuery(organisationId)}`),
  /** The usual recipients kept in the same book. */
  recipients: (organisationId?: number) =>
    get<Wire<typeof expressAddressOptionsView>>(
      `/express/address/listOptions?kind=recipient${organisationId ? `&organisationId=${organisationId}` : ''}`,
    ),
  fbaWarehouses: () => get<Wire<typeof fbaWarehousesView>>('/express/address/getFba'),
  /** A US ZIP, city and state that disagree answer 400 with the field at fault. */
  checkAddress: (body: AddressCheck) => post<Wire<typeof addressCheckedView>>('/express/address/check', body),
  save: (body: QuoteBody) => post<Wire<typeof expressQuoteSavedView>>('/express/quotation/getQuotas', body),
  /** Each channel as it is priced, then `done` or `error`; a refused call rejects like any other. */
  rates: (id: number, onLine: (line: RateLine) => void) =>
    postStream<RateLine>('/express/quotation/rates', { id }, onLine),
  info: (id: number) => post<ExpressQuoteView>('/express/quotation/info', { id }),
  select: (id: number, channelId: number) =>
    post<Wire<typeof expressSelectedView>>('/express/quotation/select', { id, channelId }),
  /** Books the channel as a waybill; with `pay` it is paid from the express account at once when it can be. */
  book: (body: BookBody) => post<Wire<typeof waybillCreatedView>>('/express/order/create', body),
  /** The user's own quotation settings, among them the channels left out of their quotes. */
  config: () => post<Wire<typeof userConfigView>>('/admin/admin/quotationConfig'),
  /** Replaces the user's quotation settings (send them whole). */
  saveConfig: (config: z.input<typeof quotationConfigBody>) =>
    post<Wire<typeof userConfigView>['quotation']>('/express/customer/setQuotationConfig', config),
};
