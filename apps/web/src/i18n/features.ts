import { accountMessages } from '../features/accounts/messages.ts';
import { addressMessages } from '../features/addresses/messages.ts';
import { afterShippingMessages } from '../features/after-shipping/messages.ts';
import { invoiceMessages } from '../features/invoices/messages.ts';
import { rechargeMessages } from '../features/recharge/messages.ts';
import { siteMessages } from '../features/site/messages.ts';
import { truckMessages } from '../features/truck/messages.ts';
import { truckProductMessages } from '../features/truck-products/messages.ts';

/** Strings that live with their feature folder, one import per feature, merged over the shared tables. */
export const FEATURE_MESSAGES: { 'zh-CN': Record<string, string>; 'en-US': Record<string, string> }[] = [
  siteMessages,
  truckMessages,
  addressMessages,
  accountMessages,
  invoiceMessages,
  rechargeMessages,
  truckProductMessages,
  afterShippingMessages,
];
