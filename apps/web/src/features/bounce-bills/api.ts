import type { BusinessLine } from '@freight/contracts/accounts';
import type { BounceBillType, bounceBillView } from '@freight/contracts/bounce-bills';
import type { Wire } from '@freight/contracts/responses';
import { post } from '../../lib/http.ts';

export const BILL_LIST_URL = '/admin/bounceBill/list';

/** One bounce bill as the list shows it; `actions` are what this user may do to it now. */
export type BounceBillView = Wire<typeof bounceBillView>;

export interface BounceBillInput {
  line: BusinessLine;
  /** The truck order's number, or on express the waybill's (`waybillNo`). */
  orderNo?: string;
  waybillNo?: string;
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
