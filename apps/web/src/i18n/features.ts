import { accountMessages } from '../features/accounts/messages.ts';
import { addressMessages } from '../features/addresses/messages.ts';
import { bounceBillMessages } from '../features/bounce-bills/messages.ts';
import { carrierMessages } from '../features/carriers/messages.ts';
import { changelogMessages } from '../features/changelog/messages.ts';
import { customerMessages } from '../features/customers/messages.ts';
import { downloadMessages } from '../features/downloads/messages.ts';
import { expressChannelMessages } from '../features/express-channels/messages.ts';
import { expressQuoteMessages } from '../features/express-quotes/messages.ts';
import { waybillMessages } from '../features/express-waybills/messages.ts';
import { integrationMessages } from '../features/integrations/messages.ts';
import { invoiceMessages } from '../features/invoices/messages.ts';
import { noticeMessages } from '../features/notices/messages.ts';
import { oplogMessages } from '../features/oplog/messages.ts';
import { rechargeMessages } from '../features/recharge/messages.ts';
import { reportMessages } from '../features/reports/messages.ts';
import { roleMessages } from '../features/roles/messages.ts';
import { siteMessages } from '../features/site/messages.ts';
import { staffMessages } from '../features/staff/messages.ts';
import { tenantMessages } from '../features/tenants/messages.ts';
import { truckOrderMessages } from '../features/truck-orders/messages.ts';
import { truckProductMessages } from '../features/truck-products/messages.ts';
import { truckQuoteMessages } from '../features/truck-quotes/messages.ts';
import { workOrderMessages } from '../features/work-orders/messages.ts';

/** Strings that live with their feature folder, one import per feature, merged over the shared tables. */
export const FEATURE_MESSAGES: { 'zh-CN': Record<string, string>; 'en-US': Record<string, string> }[] = [
  siteMessages,
  truckQuoteMessages,
  truckOrderMessages,
  addressMessages,
  accountMessages,
  invoiceMessages,
  rechargeMessages,
  truckProductMessages,
  bounceBillMessages,
  workOrderMessages,
  waybillMessages,
  expressChannelMessages,
  carrierMessages,
  expressQuoteMessages,
  customerMessages,
  integrationMessages,
  reportMessages,
  tenantMessages,
  changelogMessages,
  noticeMessages,
  downloadMessages,
  staffMessages,
  roleMessages,
  oplogMessages,
];
