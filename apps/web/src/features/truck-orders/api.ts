import type { Wire } from '@freight/contracts/responses';
import type {
  OrderAction,
  orderBulkView,
  orderDetailView,
  orderListItem,
  orderPaidView,
  orderPaymentInfoView,
  orderSavedView,
  orderStatsView,
  orderStatusView,
  orderView,
} from '@freight/contracts/truck-orders';
import type { ShipmentAddress } from '@freight/contracts/truck-shipment';
import { post } from '../../lib/http.ts';

export const ORDER_LIST_URL = '/admin/order/list';

/** The order page's address, for links from other pages (bills, work orders, notices). */
export const orderInfoPath = (orderId: number) => `/orderInfo?id=${orderId}`;

/** An order; `actions` are what this user may do with it now, as the server decides. */
export type OrderView = Wire<typeof orderView>;
/** An order as a row of the list. */
export type OrderListItem = Wire<typeof orderListItem>;
export type OrderInfo = Wire<typeof orderDetailView>;
/** Counts and sums the dashboards show, over the orders this user may see. */
export type OrderStats = Wire<typeof orderStatsView>;

/** Truck orders: booking, payment, moves of the order machine (server module `truck-orders`). */
export const truckOrderApi = {
  book: (body: {
    quoteId: number;
    productId?: number;
    taskId?: number;
    customerOrderNo?: string;
    shippingNote?: string;
    receivingNote?: string;
    extraNote?: string;
    pay?: boolean;
  }) => post<Wire<typeof orderSavedView>>('/admin/order/save', body),
  orderInfo: (id: number) => post<OrderInfo>('/admin/order/info', { id }),
  pay: (id: number) => post<Wire<typeof orderPaidView>>('/admin/order/pay', { id }),
  transition: (id: number, action: OrderAction, reason = '', carrierInfo?: string) =>
    post<Wire<typeof orderStatusView>>('/admin/order/transition', { id, action, reason, carrierInfo }),
  bulkReview: (ids: number[], action: 'approve' | 'reject', reason = '') =>
    post<Wire<typeof orderBulkView>>('/admin/order/bulkReview', { ids, action, reason }),
  bulkPay: (ids: number[]) => post<Wire<typeof orderBulkView>>('/admin/order/bulkPay', { ids }),
  editAddress: (id: number, change: { pickup?: ShipmentAddress; delivery?: ShipmentAddress }) =>
    post('/admin/order/editAddress', { id, ...change }),
  attachFile: (id: number, url: string) => post('/admin/order/file', { id, url }),
  payInfo: (id: number) => post<Wire<typeof orderPaymentInfoView>>('/admin/order/payInfo', { id }),
  stats: () => post<OrderStats>('/admin/order/stats'),
};
