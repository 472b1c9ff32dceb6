import type { Page } from '@freight/contracts/api';
import { BUILTIN_PROVIDER } from '@freight/contracts/carriers';
import type {
  channelImportView,
  deliveryAreaDeleteBody,
  deliveryAreaSaveBody,
  expressChannelExportQuery,
  expressChannelListView,
  expressChannelSaveBody,
  expressChannelView,
  expressProductListView,
  expressProductSaveBody,
  expressProductView,
  importedRowsView,
  priceTableBody,
  priceTableView,
  RatingRulesBody,
  ratingRulesView,
  SamplePriceBody,
  samplePriceView,
  surchargeTermsView,
  zoneRowView,
} from '@freight/contracts/express-channels';
import type { Wire } from '@freight/contracts/responses';
import type { z } from 'zod';
import { download, downloadGet, post, upload } from '../../lib/http.ts';
import { CARRIER_ACCOUNT_LIST_URL, type CarrierAccountRow } from '../carriers/api.ts';

/** A product as `/admin/expressProduct/list` answers it, with its channel counts. */
export type ExpressProduct = Wire<typeof expressProductView>;
export type ProductInput = z.input<typeof expressProductSaveBody>;

/** A channel with its limits, surcharges (money as decimal strings) and how far its tables are filled. */
export type ExpressChannel = Wire<typeof expressChannelView>;
export type ChannelInput = z.input<typeof expressChannelSaveBody>;
export type SurchargeTerms = Wire<typeof surchargeTermsView>;
export type DeliveryArea = SurchargeTerms['deliveryAreas'][number];
export type DeliveryAreaInput = z.input<typeof deliveryAreaSaveBody>;
export type DeliveryAreaRemoval = z.input<typeof deliveryAreaDeleteBody>;

/** Whether a channel is priced by a carrier account rather than the tenant's own tables. */
export const pricedByCarrier = (c: Pick<ExpressChannel, 'provider'>) => c.provider !== BUILTIN_PROVIDER;

export type ZoneRow = Wire<typeof zoneRowView>;
export type PriceTable = Wire<typeof priceTableView>;
export type PriceTableInput = z.input<typeof priceTableBody>;
export type RatingRules = Wire<typeof ratingRulesView>;
export type ImportedRows = Wire<typeof importedRowsView>;

export const PRODUCT_LIST_URL = '/admin/expressProduct/list';
export const CHANNEL_LIST_URL = '/admin/expressChannel/list';
export const ZONE_LIST_URL = '/admin/expressZone/list';
/** Query keys of every product and every channel at once (the pickers); a change elsewhere makes them stale. */
export const ALL_PRODUCTS_KEY = 'express-products-all';
export const ALL_CHANNELS_KEY = 'express-channels-all';
/** The query key of one channel's `/info` (the price page's delivery areas and counts). */
export const CHANNEL_INFO_KEY = 'express-channel-info';
export const PRICE_TABLE_KEY = 'express-price-table';
export const RULES_KEY = 'express-rating-rules';
/** The largest page the API gives: a picker shows every product or channel of a tenant from one call. */
const EVERY_ROW = { page: 1, limit: 200 };

export const zoneChartPath = (channelId: number) => `/partitionTable?channelId=${channelId}`;
export const channelPricePath = (channelId: number) => `/channelPrice?channelId=${channelId}`;
export const channelListPath = (productId: number) => `/expressChannelManag?productId=${productId}`;

/** The fields `/admin/expressProduct/save` takes, out of a listed product (the answer carries more). */
export function productInput(p: ExpressProduct): ProductInput {
  return {
    id: p.id,
    code: p.code,
    name: p.name,
    nameEn: p.nameEn,
    description: p.description,
    descriptionEn: p.descriptionEn,
    enabled: p.enabled,
    organisationIds: p.organisationIds,
  };
}

export const productApi = {
  all: () => post<Wire<typeof expressProductListView>>(PRODUCT_LIST_URL, EVERY_ROW),
  save: (body: ProductInput) => post<{ id: number }>('/admin/expressProduct/save', body),
  enable: (id: number, enabled: boolean) => post('/admin/expressProduct/enable', { id, enabled }),
  remove: (id: number) => post('/admin/expressProduct/delete', { id }),
};

export const channelApi = {
  all: () => post<Wire<typeof expressChannelListView>>(CHANNEL_LIST_URL, EVERY_ROW),
  info: (id: number) => post<ExpressChannel>('/admin/expressChannel/info', { id }),
  save: (body: ChannelInput) => post<{ id: number }>('/admin/expressChannel/save', body),
  enable: (id: number, enabled: boolean) => post('/admin/expressChannel/enable', { id, enabled }),
  remove: (id: number) => post('/admin/expressChannel/delete', { id }),
};

export type ChannelFilters = z.input<typeof expressChannelExportQuery>;
export type ChannelImport = Wire<typeof channelImportView>;

/** The channel list as a workbook: the template, the list's filters exported, and an import by code. */
export const channelSheetApi = {
  template: () => downloadGet('/admin/expressChannel/template', 'express-channels-template.xlsx'),
  export: (filters: ChannelFilters) =>
    download('/admin/expressChannel/export', filters, 'express-channels.xlsx'),
  /** Adds new codes and updates existing ones: every row, or nothing when a row is bad. */
  import: (file: File) => upload<ChannelImport>('/admin/expressChannel/import', file),
};

export type CarrierAccount = CarrierAccountRow;
/** The query key of the tenant's carrier accounts, for the channel form's "priced by" choice. */
export const CARRIER_ACCOUNTS_KEY = 'express-channel-carrier-accounts';

/** Every carrier account of the tenant, enabled or not (a channel may still name a disabled one). */
export const carrierAccountsApi = {
  all: () => post<Page<CarrierAccount>>(CARRIER_ACCOUNT_LIST_URL, EVERY_ROW),
};

/** Template, export and import of one kind of channel workbook (zone chart or price table). */
export interface WorkbookApi {
  template: () => Promise<void>;
  export: (channel: Pick<ExpressChannel, 'id' | 'code'>) => Promise<void>;
  /** Replaces the channel's whole table with the workbook's: all of it, or nothing when a row is bad. */
  import: (channelId: number, file: File) => Promise<ImportedRows>;
}

export const zoneApi: WorkbookApi = {
  template: () => downloadGet('/admin/expressZone/template', 'zone-chart-template.xlsx'),
  export: (channel) =>
    downloadGet(`/admin/expressZone/export?channelId=${channel.id}`, `zone-chart-${channel.code}.xlsx`),
  import: (channelId, file) => upload<ImportedRows>(`/admin/expressZone/import?channelId=${channelId}`, file),
};

export const priceApi: Omit<WorkbookApi, 'import'> & {
  /** With a date after today, the workbook's table waits beside the one in force until that day. */
  import: (channelId: number, file: File, effectiveFrom?: string) => Promise<ImportedRows>;
  unschedule: (channelId: number, effectiveFrom: string) => Promise<PriceTable>;
  info: (channelId: number) => Promise<PriceTable>;
  save: (body: PriceTableInput) => Promise<PriceTable>;
  saveDeliveryArea: (body: DeliveryAreaInput) => Promise<SurchargeTerms>;
  removeDeliveryArea: (body: DeliveryAreaRemoval) => Promise<SurchargeTerms>;
} = {
  info: (channelId) => post<PriceTable>('/admin/channelPrice/info', { channelId }),
  save: (body) => post<PriceTable>('/admin/channelPrice/save', body),
  template: () => downloadGet('/admin/channelPrice/template', 'channel-price-template.xlsx'),
  export: (channel) =>
    downloadGet(`/admin/channelPrice/export?channelId=${channel.id}`, `channel-price-${channel.code}.xlsx`),
  import: (channelId, file, effectiveFrom?: string) =>
    upload<ImportedRows>(
      `/admin/channelPrice/import?channelId=${channelId}${effectiveFrom ? `&effectiveFrom=${effectiveFrom}` : ''}`,
      file,
    ),
  unschedule: (channelId, effectiveFrom) =>
    post<PriceTable>('/admin/channelPrice/scheduled/delete', { channelId, effectiveFrom }),
  saveDeliveryArea: (body) => post<SurchargeTerms>('/admin/channelPrice/deliveryArea/save', body),
  removeDeliveryArea: (body) => post<SurchargeTerms>('/admin/channelPrice/deliveryArea/delete', body),
};

/** A channel's rating rules (`/channelPrice`). */
export type SamplePrice = Wire<typeof samplePriceView>;

export const sampleApi = {
  /** One parcel priced at cost on the channel's tables and rules, with what each step read. */
  price: (body: SamplePriceBody) => post<SamplePrice>('/admin/channelPrice/sample', body),
};

export const rulesApi = {
  info: (channelId: number) => post<RatingRules>('/admin/channelPrice/rules/info', { channelId }),
  save: (body: RatingRulesBody) => post<RatingRules>('/admin/channelPrice/rules/save', body),
};
