import { OrganisationsPage } from './OrganisationsPage.tsx';

/** The menu's customer views: the same page for each list and business line. */
export const BranchManagement = () => <OrganisationsPage kind="branch" line="truck" />;
export const ExpressBranchManagement = () => <OrganisationsPage kind="branch" line="express" />;
export const AgentCustomerManagement = () => <OrganisationsPage kind="agentCustomer" line="truck" />;
export const ExpressAgentCustomerManagement = () => <OrganisationsPage kind="agentCustomer" line="express" />;
export const DirectCustomerManagement = () => <OrganisationsPage kind="directCustomer" line="truck" />;
export const ExpressDirectCustomerManagement = () => (
  <OrganisationsPage kind="directCustomer" line="express" />
);
export const AllCustomers = () => <OrganisationsPage kind="allCustomer" line="truck" />;
export const ExpressAllCustomers = () => <OrganisationsPage kind="allCustomer" line="express" />;
