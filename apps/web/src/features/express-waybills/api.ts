import type { expressAddressOptionsView, expressOptionsView } from '@freight/contracts/express-quotes';
import type {
  expressStatsView,
  LabelFormat,
  trackingAddBody,
  trackingAddedView,
  trackingImportedView,
  trackNowView,
  waybillBulkView,
  waybillCreatedView,
  waybillDetailView,
  waybillPaymentInfoView,
  waybillReturnBody,
  waybillStatusView,
  waybillTransitionBody,
  waybillView,
} from '@freight/contracts/express-waybills';
import type { Wire } from '@freight/contracts/responses';
import type { z } from 'zod';
import { download, downloadGet, get, post, upload } from '../../lib/http.ts';

export const WAYBILL_LIST_URL = '/express/order/list';
/** How often a page looks again while a waybill waits for its carrier's label. */
export const LABEL_POLL_MS = 2_000;

/** A waybill; `actions` are what this user may do with it now, as the server decides. */
export type WaybillView = Wire<typeof waybillView>;
export type WaybillDetail = Wire<typeof waybillDetailView>;
export type WaybillTransition = z.input<typeof waybillTransitionBody>['action'];

/** The payment page's address, for links from the quote page and the list. */
export const waybillPaymentPath = (id: number) => `/waybillValuation?id=${id}`;

/** The waybill list opened on one waybill, for links from bills and work orders (as its notices do). */
export const waybillListPath = (waybillNo: string) => `/expressOrderList?sn=${encodeURIComponent(waybillNo)}`;

/** Express waybills: booking, payment, labels and moves (server module `express-waybills`). */
export const waybillApi = {
  create: (quoteId: number, pay = false) =>
    post<Wire<typeof waybillCreatedView>>('/express/order/create', { quoteId, pay }),
  payInfo: (id: number) => post<Wire<typeof waybillPaymentInfoView>>('/express/order/payInfo', { id }),
  info: (id: number) => post<WaybillDetail>('/express/order/info', { id }),
  pay: (id: number) => post<Wire<typeof waybillStatusView>>('/express/order/pay', { id }),
  bulkPay: (ids: number[]) => post<Wire<typeof waybillBulkView>>('/express/order/bulkPay', { ids }),
  refund: (id: number, reason: string) =>
    post<Wire<typeof waybillStatusView>>('/express/order/refund', { id, reason }),
  transition: (id: number, action: WaybillTransition, note = '') =>
    post<Wire<typeof waybillStatusView>>('/express/order/transition', { id, action, note }),
  /** A return waybill: the parcel comes back from the original's recipient to a return address. */
  createReturn: (body: z.input<typeof waybillReturnBody>) =>
    post<Wire<typeof waybillCreatedView>>('/express/order/createReturn', body),
  /** The return addresses (businesses and warehouses) of an organisation's book. */
  returnAddresses: (organisationId: number) =>
    get<Wire<typeof expressAddressOptionsView>>(`/express/address/returns?organisationId=${organisationId}`),
  /** The list's filters as a spreadsheet, every page. */
  export: (filters: Record<string, unknown>) =>
    download('/express/order/export', filters, 'express-waybills.xlsx'),
  /**
   * The labels as one file saved by the browser, a PDF or ZPL for thermal printers; printing moves each
   * waybill to printed.
   */
  print: (ids: number[], format: LabelFormat = 'pdf') =>
    download('/express/order/print', { ids, format }, `labels.${format}`),
  /** The customs papers of waybills crossing a border as one PDF, for labels printed as ZPL; nothing moves. */
  customsPapers: (ids: number[]) => download('/express/order/customsPapers', { ids }, 'customs.pdf'),
  /** Asks the carrier about the waybill now (at most once a minute); its new scans are recorded. */
  trackNow: (id: number) => post<Wire<typeof trackNowView>>('/express/order/trackNow', { id }),
  /** The express dashboards' figures for the user's scope. */
  stats: () => post<ExpressStats>('/express/order/stats'),
};

export type ExpressStats = Wire<typeof expressStatsView>;

/** The waybill list opened on one status's tab, for the dashboards' counts. */
export const waybillStatusListPath = (status: WaybillView['status']) => `/expressOrderList?status=${status}`;

export const TRACKING_LIST_URL = '/express/tracking/list';

/** Scans of waybills (`/waybillTracking`): recorded by staff, imported from a sheet, or the carrier's. */
export const trackingApi = {
  add: (body: z.input<typeof trackingAddBody>) =>
    post<Wire<typeof trackingAddedView>>('/express/tracking/add', body),
  import: (file: File) => upload<Wire<typeof trackingImportedView>>('/express/tracking/import', file),
  template: () => downloadGet('/express/tracking/template', 'tracking-template.xlsx'),
  /** The waybill a tracking or waybill number names, among those the user may see; null when none. */
  async findWaybill(number: string): Promise<WaybillView | null> {
    const page = await post<{ list: WaybillView[] }>(WAYBILL_LIST_URL, {
      keyword: number,
      page: 1,
      limit: 10,
    });
    const wanted = number.toUpperCase();
    return page.list.find((w) => w.trackingNo === wanted || w.waybillNo === wanted) ?? null;
  },
};

/** Where the express batch order's template, check and import live (SPEC section 7). */
export const EXPRESS_BATCH_ENDPOINTS = {
  template: '/express/order/batchTemplate',
  check: '/express/order/importDataCheck',
  import: '/express/order/batchOrdering',
};

export type ShipFromOption = Wire<typeof expressAddressOptionsView>['list'][number];

/** The express batch dialog's choices: whom staff and parents book for, and where parcels ship from. */
export const expressBatchApi = {
  customers: async () => (await get<Wire<typeof expressOptionsView>>('/express/quotation/options')).customers,
  shipFrom: (organisationId?: number) =>
    get<Wire<typeof expressAddressOptionsView>>(
      `/express/address/listOptions${organisationId ? `?organisationId=${organisationId}` : ''}`,
    ),
};
