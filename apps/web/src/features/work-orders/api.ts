import type { Wire } from '@freight/contracts/responses';
import type {
  ConsumptionType,
  TransactionItem,
  WorkOrderAction,
  WorkOrderCategory,
  workOrderInfoView,
  workOrderMessageView,
  workOrderView,
} from '@freight/contracts/work-orders';
import type { QueryClient } from '@tanstack/react-query';
import { get, post } from '../../lib/http.ts';
import { BILL_LIST_URL } from '../bounce-bills/api.ts';

export const WORK_ORDER_LIST_URL = '/admin/workOrder/list';

export type WorkOrderView = Wire<typeof workOrderView>;
export type WorkOrderMessage = Wire<typeof workOrderMessageView>;
export type WorkOrderInfo = Wire<typeof workOrderInfoView>;
export type WorkOrderEvent = WorkOrderInfo['events'][number];

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
