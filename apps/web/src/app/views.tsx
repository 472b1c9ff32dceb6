import { type ComponentType, lazy } from 'react';

/** Several views exported by one module, each loaded with it. */
function lazyViews(
  load: () => Promise<Record<string, unknown>>,
  names: string[],
): Record<string, ComponentType> {
  return Object.fromEntries(
    names.map((name) => [name, lazy(() => load().then((m) => ({ default: m[name] as ComponentType })))]),
  );
}

/**
 * View names the server menu sends (`component`) mapped to pages, loaded lazily. A view not listed
 * here belongs to a module of a later release and shows the coming-soon page.
 */
export const VIEWS: Record<string, ComponentType> = {
  Home: lazy(() => import('../features/home/HomePage.tsx')),
  Profile: lazy(() => import('../features/profile/ProfilePage.tsx')),
  RoleManagement: lazy(() => import('../features/roles/RoleManagementPage.tsx')),
  StaffManagement: lazy(() => import('../features/staff/StaffManagementPage.tsx')),
  OperationLog: lazy(() => import('../features/oplog/OperationLogPage.tsx')),
  SiteConfiguration: lazy(() => import('../features/site/SiteConfigurationPage.tsx')),
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
    ['AccountDetails', 'ExpressAccountDetails', 'BalanceTotal', 'ExpressBalanceTotal'],
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
