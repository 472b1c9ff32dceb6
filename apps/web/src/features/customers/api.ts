import type {
  accountSummaryView,
  invitationsView,
  invitationView,
  organisationListView,
  organisationRowView,
  organisationUsersView,
  organisationUserView,
  parentOptionsView,
  priceLevelsView,
  priceLevelView,
} from '@freight/contracts/customers';
import type { expressPriceSampleBody, expressPriceSampleView } from '@freight/contracts/express-quotes';
import type { Wire } from '@freight/contracts/responses';
import type { z } from 'zod';
import { post } from '../../lib/http.ts';

export type Line = 'truck' | 'express';
export type ListKind = 'branch' | 'agent' | 'agentCustomer' | 'directCustomer' | 'allCustomer';

export type AccountSummary = Wire<typeof accountSummaryView>;
export type OrganisationRow = Wire<typeof organisationRowView>;
export type OrganisationUser = Wire<typeof organisationUserView>;
export type Invitation = Wire<typeof invitationView>;
export type PriceLevel = Wire<typeof priceLevelView>;
export type PriceSample = Wire<typeof expressPriceSampleView>;
export type PriceSampleBody = z.input<typeof expressPriceSampleBody>;
/** One markup of an organisation on a line: '' is the line's default, else a product or channel code. */
export interface Markup {
  productKey: string;
  markupPercent: string;
  markupFixed: string;
}

export const customersApi = {
  parentOptions: (type: 'branch' | 'agent' | 'customer') =>
    post<Wire<typeof parentOptionsView>>('/admin/customer/parentOptions', { type }),
  users: (id: number) => post<Wire<typeof organisationUsersView>>('/admin/customer/users', { id }),
  invitations: (id: number) => post<Wire<typeof invitationsView>>('/admin/customer/invitations', { id }),
  priceLevels: (id: number) => post<Wire<typeof priceLevelsView>>('/admin/customer/priceLevels', { id }),
  savePriceLevel: (organisationId: number, line: Line, markup: Markup) =>
    post('/admin/customer/priceLevelSave', { organisationId, line, ...markup }),
  deletePriceLevel: (organisationId: number, line: Line, productKey: string) =>
    post('/admin/customer/priceLevelDelete', { organisationId, line, productKey }),
  /** A sample parcel on every express channel open to the organisation, priced at each level. */
  expressPriceSample: (body: PriceSampleBody) => post<PriceSample>('/express/price/sample', body),
  /** Branches and agents in the user's scope (the parents a customer may have). */
  groupOptions: () =>
    post<Wire<typeof parentOptionsView>>('/admin/customer/parentOptions', { type: 'customer' }),
  /** Express customers in the user's scope whose name, contact or e-mail contains the keyword. */
  expressCustomers: (keyword: string) =>
    post<Wire<typeof organisationListView>>('/admin/customer/list', {
      kind: 'allCustomer',
      line: 'express',
      keyword: keyword || undefined,
      page: 1,
      limit: 50,
    }),
};
