import type {
  ConsumptionType,
  TransactionItem,
  WorkOrderAction,
  WorkOrderCategory,
  WorkOrderStatus,
} from '@freight/contracts/work-orders';
import type { QueryClient } from '@tanstack/react-query';
import { get, post } from '../../lib/http.ts';
import { BILL_LIST_URL } from '../bounce-bills/api.ts';

export const WORK_ORDER_LIST_URL = '/admin/workOrder/list';

export interface WorkOrderView {
  id: number;
  workOrderNo: string;
  orderId: number;
  orderNo: string;
  organisationId: number;
  organisationName: string;
  billId: number | null;
  billNo: string | null;
  category: WorkOrderCategory;
  transactionItem: TransactionItem;
  amount: string;
  description: string;
  proofUrls: string[];
  status: WorkOrderStatus;
  consumptionType: ConsumptionType;
  resultAmount: string;
  remark: string;
  /** The staff member's e-mail, or empty while nobody has handled it. */
  operator: string;
  processedAt: string | null;
  createdAt: string;
  actions: WorkOrderAction[];
  canMessage: boolean;
}

export interface WorkOrderMessage {
  id: number;
  side: 'staff' | 'owner';
  author: string;
  body: string;
  attachments: string[];
  createdAt: string;
}

export interface WorkOrderEvent {
  id: number;
  action: string;
  fromStatus: WorkOrderStatus | null;
  toStatus: WorkOrderStatus;
  operator: string;
  note: string;
  createdAt: string;
}

export interface WorkOrderInfo extends WorkOrderView {
  messages: WorkOrderMessage[];
  events: WorkOrderEvent[];
}

export interface WorkOrderInput {
  orderNo: string;
  category: WorkOrderCategory;
  transactionItem: TransactionItem;
  amount: string;
  description: string;
  proofUrls: string[];
  billId?: number;
}

export interface WorkOrderDecision {
  sn: string;
  action: WorkOrderAction;
  consumptionType?: ConsumptionType;
  resultAmount?: string;
  remark?: string;
}

export const workOrderApi = {
  save: (body: WorkOrderInput) => post<WorkOrderView>('/admin/workOrder/save', body),
  info: (sn: string) => get<WorkOrderInfo>(`/admin/workOrder/info?sn=${encodeURIComponent(sn)}`),
  message: (sn: string, body: string, attachments: string[]) =>
    post<WorkOrderMessage>('/admin/workOrder/message', { sn, body, attachments }),
  act: (decision: WorkOrderDecision) => post<WorkOrderView>('/admin/workOrder/action', decision),
};

export const workOrderPath = (workOrderNo: string) =>
  `/work-order-copy?sn=${encodeURIComponent(workOrderNo)}`;

/**
 * A work order and its bill move together (a dispute marks the bill, the resolution settles it), so a
 * change to either refreshes both lists, including tabs kept open in the background.
 */
export function refreshBillsAndWorkOrders(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: [BILL_LIST_URL] });
  void queryClient.invalidateQueries({ queryKey: [WORK_ORDER_LIST_URL] });
}
