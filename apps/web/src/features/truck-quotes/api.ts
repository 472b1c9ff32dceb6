import type {
  PriceLevelWire,
  QuoteAction,
  QuoteResultWire,
  TaskAction,
  TaskStatus,
} from '@freight/contracts/truck-quotes';
import type { Shipment, ShipmentAddress } from '@freight/contracts/truck-shipment';
import { post, postStream } from '../../lib/http.ts';

/** What the form edits: the shipment with amounts as the inputs hold them. */
export type ShipmentInput = Shipment;

/** A price level and a product's result as the server sends them: money as decimal strings. */
export type QuoteLevelView = PriceLevelWire;
export type QuoteResultView = QuoteResultWire;

export interface QuoteView {
  id: number;
  quoteNo: string;
  organisationId: number;
  status: 'open' | 'booked' | 'expired';
  shipment: Shipment;
  results: QuoteResultView[];
  manualReason: string | null;
  expiresAt: string | null;
  expired: boolean;
  /** What this user may do with the quote now, as the server decides. */
  actions: QuoteAction[];
  createdAt: string;
}

export type StreamLine =
  | { type: 'result'; result: QuoteResultView }
  | { type: 'done'; expiresAt: string; results: QuoteResultView[] }
  | { type: 'error' };

export interface TaskView {
  id: number;
  taskNo: string;
  quoteId: number;
  organisationId: number;
  status: TaskStatus;
  reason: string;
  note: string;
  carrier: string;
  transitDaysMin: number | null;
  transitDaysMax: number | null;
  result: QuoteResultView | null;
  validUntil: string | null;
  /** What this user may do with the task now, as the server decides. */
  actions: TaskAction[];
  createdAt: string;
}

/** Truck quotes and manual quotation tasks (server module `truck-quotes`). */
export const truckQuoteApi = {
  baseInfo: () =>
    post<{ accessorials: string[]; freightClasses: string[]; quoteTtlHours: number }>(
      '/admin/quotation/getQuotationBaseInfo',
    ),
  customerOptions: () => post<{ list: { id: number; name: string }[] }>('/admin/quotation/customerOptions'),
  saveQuote: (shipment: Shipment & { organisationId?: number }) =>
    post<{ id: number; quoteNo: string; manualReason: string | null }>('/admin/quotation/save', shipment),
  saveLocation: (id: number, pickup: ShipmentAddress, delivery: ShipmentAddress) =>
    post('/admin/quotation/saveQuotationLocation', { id, pickup, delivery }),
  saveDetail: (id: number, detail: Omit<Shipment, 'pickup' | 'delivery'>) =>
    post('/admin/quotation/saveQuotationDetail', { id, ...detail }),
  quoteInfo: (id: number) => post<QuoteView>('/admin/quotation/getQuotationInfo', { id }),
  rates: (id: number, onLine: (line: StreamLine) => void) =>
    postStream<StreamLine>('/admin/quotation/rates', { id }, onLine),
  requestTask: (quoteId: number, note: string) =>
    post<{ id: number; taskNo: string }>('/admin/quotation/task/request', { quoteId, note }),
  taskInfo: (id: number) =>
    post<{
      task: TaskView;
      quote: QuoteView;
      history: { action: string; toStatus: string; note: string; createdAt: string }[];
    }>('/admin/quotation/task/info', { id }),
  taskAction: (id: number, action: 'refuse' | 'accept' | 'decline' | 'cancel', note = '') =>
    post('/admin/quotation/task/action', { id, action, note }),
  priceTask: (body: Record<string, unknown>) => post('/admin/quotation/saveQuotation', body),
};
