import type { OrderAction, OrderStatus, OrderViewAction } from '@freight/contracts/truck-orders';
import type { Shipment, ShipmentAddress } from '@freight/contracts/truck-shipment';
import { post } from '../../lib/http.ts';

export const ORDER_LIST_URL = '/admin/order/list';

/** The order page's address, for links from other pages (bills, work orders, notices). */
export const orderInfoPath = (orderId: number) => `/orderInfo?id=${orderId}`;

export interface OrderView {
  id: number;
  orderNo: string;
  customerOrderNo: string;
  queryCode: string;
  organisationId: number;
  quoteId: number | null;
  carrier: string;
  mode: 'LTL' | 'FTL';
  status: OrderStatus;
  orderType: 'regular' | 'return';
  shipment: Shipment;
  total: string;
  freight: string;
  fuel: string;
  surcharge: string;
  premium: string;
  insuredAmount: string;
  paid: string;
  paidAt: string | null;
  costPrice: string | null;
  branchPrice: string | null;
  agentPrice: string | null;
  customerPrice: string;
  accessorials: { code: string; fee: string }[];
  origin: string;
  destination: string;
  transitDaysMin: number;
  transitDaysMax: number;
  pickupCode: string;
  deliveryCode: string;
  carrierInfo: string;
  rejectReason: string;
  shippingNote: string;
  receivingNote: string;
  extraNote: string;
  orderFileUrl: string | null;
  productName: string;
  productNameEn: string;
  serviceLevel: string;
  lines: { freightClass: string; suggestedClass: string; density: number; weight: number }[];
  /** What this user may do with the order now, as the server decides; pages offer these only. */
  actions: OrderViewAction[];
  createdAt: string;
  updatedAt: string;
}

export interface OrderInfo {
  order: OrderView;
  timeline: {
    id: number;
    action: string;
    fromStatus: OrderStatus | null;
    toStatus: OrderStatus | null;
    actorId: number | null;
    note: string;
    createdAt: string;
  }[];
  ledger: {
    id: number;
    type: string;
    amount: string;
    balanceAfter: string;
    note: string;
    createdAt: string;
  }[];
}

/** Counts and sums the dashboards show, over the orders this user may see. */
export interface OrderStats {
  today: { orders: number; paid: string };
  month: { orders: number; paid: string };
  series: { day: string; orders: number; paid: string }[];
  statuses: Record<string, number>;
  waitingReview: number;
  unpaid: number;
  openWorkOrders: number;
  unpaidBills: number;
  balance: { balance: string; available: string } | null;
}

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
  }) =>
    post<{
      id: number;
      orderNo: string;
      status: OrderStatus;
      payment: { ok: boolean; message: string } | null;
    }>('/admin/order/save', body),
  orderInfo: (id: number) => post<OrderInfo>('/admin/order/info', { id }),
  pay: (id: number) => post<{ status: OrderStatus; repeated: boolean }>('/admin/order/pay', { id }),
  transition: (id: number, action: OrderAction, reason = '', carrierInfo?: string) =>
    post<{ status: OrderStatus }>('/admin/order/transition', { id, action, reason, carrierInfo }),
  bulkReview: (ids: number[], action: 'approve' | 'reject', reason = '') =>
    post<{ results: Record<string, string> }>('/admin/order/bulkReview', { ids, action, reason }),
  bulkPay: (ids: number[]) => post<{ results: Record<string, string> }>('/admin/order/bulkPay', { ids }),
  editAddress: (id: number, change: { pickup?: ShipmentAddress; delivery?: ShipmentAddress }) =>
    post('/admin/order/editAddress', { id, ...change }),
  attachFile: (id: number, url: string) => post('/admin/order/file', { id, url }),
  payInfo: (id: number) =>
    post<{
      order: OrderView;
      account: { balance: string; creditLimit: string; frozen: string; available: string; status: string };
    }>('/admin/order/payInfo', { id }),
  stats: () => post<OrderStats>('/admin/order/stats'),
};
