import type { FastifyPluginAsync } from 'fastify';
import accountRoutes from './accounts/routes.ts';
import expressAddressRoutes from './addresses/express-routes.ts';
import addressRoutes from './addresses/routes.ts';
import authRoutes from './auth/routes.ts';
import bounceBillRoutes from './bounce-bills/routes.ts';
import carrierRoutes from './carriers/routes.ts';
import changelogRoutes from './changelog/routes.ts';
import commonRoutes from './common/routes.ts';
import registrationRoutes from './customers/registration-routes.ts';
import customerRoutes from './customers/routes.ts';
import downloadRoutes from './downloads/routes.ts';
import expressChannelRoutes from './express-channels/routes.ts';
import expressQuoteRoutes from './express-quotes/routes.ts';
import expressBatchRoutes from './express-waybills/batch-routes.ts';
import expressCarrierTrackingRoutes from './express-waybills/carrier-tracking-routes.ts';
import expressWaybillRoutes from './express-waybills/routes.ts';
import homeRoutes from './home/routes.ts';
import integrationRoutes from './integrations/routes.ts';
import webhookRoutes from './integrations/webhook-routes.ts';
import invoiceRoutes from './invoices/routes.ts';
import mailRoutes from './mail/routes.ts';
import noticeRoutes from './notices/routes.ts';
import oplogRoutes from './oplog/routes.ts';
import rechargeRoutes from './recharge/routes.ts';
import reportRoutes from './reports/routes.ts';
import rbacRoutes from './roles/routes.ts';
import siteRoutes from './site/routes.ts';
import staffRoutes from './staff/routes.ts';
import statusRoutes from './status/routes.ts';
import tenantRoutes from './tenants/routes.ts';
import orderBatchRoutes from './truck-orders/batch-routes.ts';
import orderRoutes from './truck-orders/routes.ts';
import uploadApiRoutes from './truck-orders/upload-api-routes.ts';
import truckRoutes from './truck-products/routes.ts';
import quoteRoutes from './truck-quotes/routes.ts';
import uploadRoutes from './uploads/routes.ts';
import workOrderRoutes from './work-orders/routes.ts';

/** Every business module's routes, mounted under /api. */
export const modules: FastifyPluginAsync[] = [
  statusRoutes,
  siteRoutes,
  authRoutes,
  registrationRoutes,
  rbacRoutes,
  staffRoutes,
  oplogRoutes,
  mailRoutes,
  uploadRoutes,
  commonRoutes,
  customerRoutes,
  accountRoutes,
  rechargeRoutes,
  invoiceRoutes,
  truckRoutes,
  quoteRoutes,
  orderRoutes,
  orderBatchRoutes,
  homeRoutes,
  noticeRoutes,
  addressRoutes,
  expressAddressRoutes,
  expressChannelRoutes,
  expressQuoteRoutes,
  expressWaybillRoutes,
  expressBatchRoutes,
  expressCarrierTrackingRoutes,
  bounceBillRoutes,
  workOrderRoutes,
  integrationRoutes,
  carrierRoutes,
  webhookRoutes,
  reportRoutes,
  tenantRoutes,
  changelogRoutes,
  downloadRoutes,
];

/** Calls of external systems, mounted under /shipment (SPEC section 7: `/shipment/uploadapi`). */
export const shipmentModules: FastifyPluginAsync[] = [uploadApiRoutes];
