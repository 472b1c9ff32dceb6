import type { Wire } from '@freight/contracts/responses';
import type {
  quoteBaseInfoView,
  quoteCustomerOptionsView,
  quoteResultView,
  quoteSavedView,
  quoteView,
  rateStreamLine,
  taskDetailView,
  taskRequestedView,
  taskView,
} from '@freight/contracts/truck-quotes';
import type { Shipment, ShipmentAddress } from '@freight/contracts/truck-shipment';
import { post, postStream } from '../../lib/http.ts';

/** A product's result as the server sends it: money as decimal strings. */
export type QuoteResultView = Wire<typeof quoteResultView>;
/** A quote; `actions` are what this user may do with it now, as the server decides. */
export type QuoteView = Wire<typeof quoteView>;
export type StreamLine = Wire<typeof rateStreamLine>;
/** A manual quotation task; `actions` as for quotes. */
export type TaskView = Wire<typeof taskView>;

/** Truck quotes and manual quotation tasks (server module `truck-quotes`). */
export const truckQuoteApi = {
  baseInfo: () => post<Wire<typeof quoteBaseInfoView>>('/admin/quotation/getQuotationBaseInfo'),
  customerOptions: () => post<Wire<typeof quoteCustomerOptionsView>>('/admin/quotation/customerOptions'),
  saveQuote: (shipment: Shipment & { organisationId?: number }) =>
    post<Wire<typeof quoteSavedView>>('/admin/quotation/save', shipment),
  saveLocation: (id: number, pickup: ShipmentAddress, delivery: ShipmentAddress) =>
    post('/admin/quotation/saveQuotationLocation', { id, pickup, delivery }),
  saveDetail: (id: number, detail: Omit<Shipment, 'pickup' | 'delivery'>) =>
    post('/admin/quotation/saveQuotationDetail', { id, ...detail }),
  quoteInfo: (id: number) => post<QuoteView>('/admin/quotation/getQuotationInfo', { id }),
  rates: (id: number, onLine: (line: StreamLine) => void) =>
    postStream<StreamLine>('/admin/quotation/rates', { id }, onLine),
  requestTask: (quoteId: number, note: string) =>
    post<Wire<typeof taskRequestedView>>('/admin/quotation/task/request', { quoteId, note }),
  taskInfo: (id: number) => post<Wire<typeof taskDetailView>>('/admin/quotation/task/info', { id }),
  taskAction: (id: number, action: 'refuse' | 'accept' | 'decline' | 'cancel', note = '') =>
    post('/admin/quotation/task/action', { id, action, note }),
  priceTask: (body: Record<string, unknown>) => post('/admin/quotation/saveQuotation', body),
};
