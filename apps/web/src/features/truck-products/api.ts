import type { Page } from '@freight/contracts/api';
import type { Wire } from '@freight/contracts/responses';
import type { laneSaveBody, laneView, productSaveBody, productView } from '@freight/contracts/truck-products';
import type { Accessorial } from '@freight/contracts/truck-rating';
import { downloadGet, post, upload } from '../../lib/http.ts';

export type TruckMode = 'LTL' | 'FTL';

/** A product as `/admin/product/list` answers it: money as decimal strings, percentages as text. */
export type TruckProduct = Wire<typeof productView>;

export type ProductInput = Wire<typeof productSaveBody>;

/** The fields `/admin/product/save` takes, out of a listed product (the answer carries more). */
export function productInput(p: TruckProduct): ProductInput {
  return {
    id: p.id,
    code: p.code,
    name: p.name,
    nameEn: p.nameEn,
    carrier: p.carrier,
    serviceLevel: p.serviceLevel,
    mode: p.mode,
    transitDaysMin: p.transitDaysMin,
    transitDaysMax: p.transitDaysMax,
    enabled: p.enabled,
    organisationIds: p.organisationIds,
  };
}

export interface ProductTerms {
  id: number;
  accessorialFees: Partial<Record<Accessorial, string>>;
  insuranceRatePercent: string;
  minimumPremium: string;
  deductible: string;
}

export type Lane = Wire<typeof laneView>;
export type LtlTerms = NonNullable<Lane['ltl']>;
export type FtlTerms = NonNullable<Lane['ftl']>;
export type LaneInput = Wire<typeof laneSaveBody>;

export const PRODUCT_LIST_URL = '/admin/product/list';
/** The query key of every product at once (the tariff page's picker, the customers' drawer). */
export const ALL_PRODUCTS_KEY = 'truck-products-all';
export const LANE_LIST_URL = '/admin/freightRule/lanes';
/** The largest page the API gives: the product pickers show every product of a tenant from one call. */
const ALL_PRODUCTS = { page: 1, limit: 200 };

export const productApi = {
  all: () => post<Page<TruckProduct>>(PRODUCT_LIST_URL, ALL_PRODUCTS),
  save: (body: ProductInput) => post<{ id: number }>('/admin/product/save', body),
  saveTerms: (body: ProductTerms) => post<{ id: number }>('/admin/product/saveTerms', body),
};

export const laneApi = {
  save: (body: LaneInput) => post<{ id: number }>('/admin/freightRule/lane/save', body),
  remove: (productId: number, ids: number[]) =>
    post<{ removed: number }>('/admin/freightRule/lane/delete', { productId, ids }),
  template: () => downloadGet('/admin/freightRule/template', 'tariff-template.xlsx'),
  export: (product: Pick<TruckProduct, 'id' | 'code'>) =>
    downloadGet(`/admin/freightRule/export?productId=${product.id}`, `tariff-${product.code}.xlsx`),
  /** Replaces every lane of the product with the workbook's: all of them, or none when a row is bad. */
  import: (productId: number, file: File) =>
    upload<{ imported: number }>(`/admin/freightRule/import?productId=${productId}`, file),
};
