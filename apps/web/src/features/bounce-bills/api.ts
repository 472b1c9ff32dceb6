import type { BounceBillAction, BounceBillStatus, BounceBillType } from '@freight/contracts/bounce-bills';
import { post } from '../../lib/http.ts';

export const BILL_LIST_URL = '/admin/bounceBill/list';

/** One bounce bill as the list shows it; `actions` are what this user may do to it now. */
export interface BounceBillView {
  id: number;
  billNo: string;
  orderId: number;
  orderNo: string;
  organisationId: number;
  organisationName: string;
  type: BounceBillType;
  amount: string;
  declared: string;
  actual: string;
  description: string;
  proofUrl: string | null;
  status: BounceBillStatus;
  chargedAt: string | null;
  cancelReason: string | null;
  workOrderNo: string | null;
  createdAt: string;
  actions: Extract<BounceBillAction, 'pay' | 'cancel' | 'dispute'>[];
}

export interface BounceBillInput {
  orderNo: string;
  type: BounceBillType;
  amount: string;
  declared: string;
  actual: string;
  description: string;
  proofUrl: string | null;
}

export const bounceBillApi = {
  save: (body: BounceBillInput) => post<BounceBillView>('/admin/bounceBill/save', body),
  pay: (id: number) => post<BounceBillView>('/admin/bounceBill/pay', { id }),
  cancel: (id: number, reason: string) => post<BounceBillView>('/admin/bounceBill/cancel', { id, reason }),
};
