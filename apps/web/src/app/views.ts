import { type ComponentType, lazy } from 'react';

/** SPEC section 9: a page's chunk that has not arrived after 120 s counts as failed. */
const CHUNK_TIMEOUT_MS = 120_000;

function withTimeout<T>(load: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = window.setTimeout(() => {
      const error = new Error(`Loading chunk timed out after ${CHUNK_TIMEOUT_MS} ms`);
      error.name = 'ChunkLoadError';
      reject(error);
    }, CHUNK_TIMEOUT_MS);
    load().then(
      (value) => {
        window.clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        window.clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** A view: its component, loaded when first shown, and a way to ask for its code before then. */
interface View {
  Component: ComponentType;
  preload(): Promise<unknown>;
}

/** One request for a module however often it is asked for; a failed one is asked for again. */
function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    if (!loading) {
      loading = withTimeout(load);
      loading.catch(() => {
        loading = undefined;
      });
    }
    return loading;
  };
}

/** A page module's default export. */
function page(load: () => Promise<{ default: ComponentType }>): View {
  const module = loadOnce(load);
  return { Component: lazy(module), preload: module };
}

/** Several views exported by one module, each loaded with it. */
function lazyViews(load: () => Promise<Record<string, unknown>>, names: string[]): Record<string, View> {
  const module = loadOnce(load);
  return Object.fromEntries(
    names.map((name) => [
      name,
      {
        Component: lazy(() => module().then((m) => ({ default: m[name] as ComponentType }))),
        preload: module,
      },
    ]),
  );
}

/**
 * View names the server menu sends (`component`) mapped to pages, loaded lazily. A view not listed
 * here belongs to a module of a later release and shows the coming-soon page.
 */
export const VIEWS: Record<string, View> = {
  Home: page(() => import('../features/home/HomePage.tsx')),
  DownloadCenter: page(() => import('../features/downloads/DownloadCenterPage.tsx')),
  Profile: page(() => import('../features/profile/ProfilePage.tsx')),
  RoleManagement: page(() => import('../features/roles/RoleManagementPage.tsx')),
  StaffManagement: page(() => import('../features/staff/StaffManagementPage.tsx')),
  OperationLog: page(() => import('../features/oplog/OperationLogPage.tsx')),
  SiteConfiguration: page(() => import('../features/site/SiteConfigurationPage.tsx')),
  TenantManagement: page(() => import('../features/tenants/TenantManagementPage.tsx')),
  ChangelogManagement: page(() => import('../features/changelog/ChangelogManagementPage.tsx')),
  Invoices: page(() => import('../features/invoices/InvoicesPage.tsx')),
  ApiKeys: page(() => import('../features/integrations/ApiKeysPage.tsx')),
  Webhooks: page(() => import('../features/integrations/WebhooksPage.tsx')),
  NoticeList: page(() => import('../features/notices/NoticeListPage.tsx')),
  NoticeManagement: page(() => import('../features/notices/NoticeManagementPage.tsx')),
  TruckQuote: page(() => import('../features/truck-quotes/QuotePage.tsx')),
  TruckQuoteList: page(() => import('../features/truck-quotes/QuoteListPage.tsx')),
  QuotationTaskList: page(() => import('../features/truck-quotes/QuotationTasksPage.tsx')),
  TruckOrderList: page(() => import('../features/truck-orders/OrderListPage.tsx')),
  TruckOrderInfo: page(() => import('../features/truck-orders/OrderInfoPage.tsx')),
  TruckOrderPayment: page(() => import('../features/truck-orders/OrderPaymentPage.tsx')),
  TruckOrderPay: page(() => import('../features/truck-orders/OrderPaymentPage.tsx')),
  ...lazyViews(() => import('../features/truck-orders/DashboardPage.tsx'), ['TruckDashboard', 'TruckHome']),
  TruckAddressBook: page(() => import('../features/addresses/AddressBookPage.tsx')),
  ExpressAddressBook: page(() => import('../features/addresses/ExpressAddressBookPage.tsx')),
  ExpressOrderList: page(() => import('../features/express-waybills/WaybillListPage.tsx')),
  ExpressOrderPayment: page(() => import('../features/express-waybills/WaybillPaymentPage.tsx')),
  WaybillTracking: page(() => import('../features/express-waybills/TrackingPage.tsx')),
  ExpressReturnList: page(() => import('../features/express-waybills/ReturnsPage.tsx')),
  ...lazyViews(
    () => import('../features/express-waybills/DashboardPage.tsx'),
    ['ExpressDashboard', 'ExpressHome'],
  ),
  ExpressQuote: page(() => import('../features/express-quotes/QuotePage.tsx')),
  ExpressQuoteQuery: page(() => import('../features/express-quotes/QuoteListPage.tsx')),
  TruckProducts: page(() => import('../features/truck-products/TruckProductsPage.tsx')),
  FreightRules: page(() => import('../features/truck-products/FreightRulesPage.tsx')),
  ExpressProducts: page(() => import('../features/express-channels/ExpressProductsPage.tsx')),
  ExpressChannels: page(() => import('../features/express-channels/ExpressChannelsPage.tsx')),
  ZoneCharts: page(() => import('../features/express-channels/ZoneChartsPage.tsx')),
  ChannelPrices: page(() => import('../features/express-channels/ChannelPricesPage.tsx')),
  SetPrice: page(() => import('../features/customers/SetPricePage.tsx')),
  CarrierAccounts: page(() => import('../features/carriers/CarrierAccountsPage.tsx')),
  FinancialStatements: page(() => import('../features/reports/ReportsPage.tsx')),
  ...lazyViews(
    () => import('../features/bounce-bills/pages.tsx'),
    ['BounceBill', 'AbnormalBilling', 'ExpressBounceBill'],
  ),
  ...lazyViews(
    () => import('../features/work-orders/pages.tsx'),
    ['TruckWorkOrderList', 'TruckWorkOrderDetail', 'ExpressWorkOrderList', 'ExpressWorkOrderDetail'],
  ),
  ...lazyViews(
    () => import('../features/recharge/pages.tsx'),
    [
      'Recharge',
      'ExpressRecharge',
      'RechargeManagement',
      'ExpressRechargeManagement',
      'RechargeReview',
      'ExpressRechargeReview',
    ],
  ),
  ...lazyViews(
    () => import('../features/accounts/pages.tsx'),
    [
      'AccountDetails',
      'ExpressAccountDetails',
      'BalanceTotal',
      'ExpressBalanceTotal',
      'AccountLog',
      'ExpressAccountLog',
      'DeductionDetails',
    ],
  ),
  ...lazyViews(
    () => import('../features/customers/pages.tsx'),
    [
      'BranchManagement',
      'ExpressBranchManagement',
      'AgentCustomerManagement',
      'ExpressAgentCustomerManagement',
      'DirectCustomerManagement',
      'ExpressDirectCustomerManagement',
      'AllCustomers',
      'ExpressAllCustomers',
    ],
  ),
};

/**
 * Asks for a view's code now, e.g. the page a signed-in visit opens on, while the shell and the session
 * are still on their way: its page then draws with the shell rather than after it, behind a spinner.
 */
export function preloadView(name: string | undefined): void {
  if (name) VIEWS[name]?.preload().catch(() => undefined);
}
