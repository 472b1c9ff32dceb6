import { type ComponentType, lazy } from 'react';

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
  ...Object.fromEntries(
    [
      'BranchManagement',
      'ExpressBranchManagement',
      'AgentCustomerManagement',
      'ExpressAgentCustomerManagement',
      'DirectCustomerManagement',
      'ExpressDirectCustomerManagement',
      'AllCustomers',
      'ExpressAllCustomers',
    ].map((name) => [
      name,
      lazy(() =>
        import('../features/customers/pages.tsx').then((m) => ({ default: m[name as keyof typeof m] })),
      ),
    ]),
  ),
};
