import type { BusinessLine } from '@freight/contracts/accounts';
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
  line: BusinessLine;
  /** The truck order's number, or on express the waybill's (`waybillNo`). */
  orderNo?: string;
  waybillNo?: string;
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

/** The list and one work order's page of each line (SPEC section 2). */
export const WORK_ORDER_PATHS: Record<BusinessLine, { list: string; detail: string }> = {
  truck: { list: '/workOrderList', detail: '/work-order-copy' },
  express: { list: '/expressWorkOrderList', detail: '/expressWorkorderoperate' },
};

export const workOrderPath = (workOrderNo: string, line: BusinessLine = 'truck') =>
  `${WORK_ORDER_PATHS[line].detail}?sn=${encodeURIComponent(workOrderNo)}`;

/**
 * A work order and its bill move together (a dispute marks the bill, the resolution settles it), so a
 * change to either refreshes both lists, including tabs kept open in the background.
 */
export function refreshBillsAndWorkOrders(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: [BILL_LIST_URL] });
  void queryClient.invalidateQueries({ queryKey: [WORK_ORDER_LIST_URL] });
}
