import type {
  accountSummaryView,
  invitationsView,
  invitationView,
  organisationRowView,
  organisationUsersView,
  organisationUserView,
  parentOptionsView,
  priceLevelsView,
  priceLevelView,
} from '@freight/contracts/customers';
import type { Wire } from '@freight/contracts/responses';
import { post } from '../../lib/http.ts';

export type Line = 'truck' | 'express';
export type ListKind = 'branch' | 'agent' | 'agentCustomer' | 'directCustomer' | 'allCustomer';

export type AccountSummary = Wire<typeof accountSummaryView>;
export type OrganisationRow = Wire<typeof organisationRowView>;
export type OrganisationUser = Wire<typeof organisationUserView>;
export type Invitation = Wire<typeof invitationView>;
export type PriceLevel = Wire<typeof priceLevelView>;

export const customersApi = {
  parentOptions: (type: 'branch' | 'agent' | 'customer') =>
    post<Wire<typeof parentOptionsView>>('/admin/customer/parentOptions', { type }),
  users: (id: number) => post<Wire<typeof organisationUsersView>>('/admin/customer/users', { id }),
  invitations: (id: number) => post<Wire<typeof invitationsView>>('/admin/customer/invitations', { id }),
  priceLevels: (id: number) => post<Wire<typeof priceLevelsView>>('/admin/customer/priceLevels', { id }),
};
