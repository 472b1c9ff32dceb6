import { post } from '../../lib/http.ts';

export type Line = 'truck' | 'express';
export type ListKind = 'branch' | 'agent' | 'agentCustomer' | 'directCustomer' | 'allCustomer';

export interface AccountSummary {
  id: number;
  status: 'normal' | 'frozen';
  balance: string;
  creditLimit: string;
  frozen: string;
  deposit: string;
  available: string;
}

export interface OrganisationRow {
  id: number;
  type: 'branch' | 'agent' | 'customer';
  name: string;
  parentId: number | null;
  parentName: string | null;
  parentType: string | null;
  contactName: string;
  contactEmail: string;
  contactPhone: string;
  enabled: boolean;
  createdAt: string;
  userCount: number;
  account: AccountSummary | null;
}

export interface OrganisationUser {
  id: number;
  email: string;
  name: string;
  phone: string;
  enabled: boolean;
  lastLoginAt: string | null;
}

export interface Invitation {
  id: number;
  code: string;
  expiresAt: string | null;
  revokedAt: string | null;
  live: boolean;
}

export interface PriceLevel {
  line: Line;
  productKey: string;
  markupPercent: string;
  markupFixed: string;
}

export const customersApi = {
  parentOptions: (type: 'branch' | 'agent' | 'customer') =>
    post<{ list: { id: number; name: string; type: string }[]; platformAllowed: boolean }>(
      '/admin/customer/parentOptions',
      { type },
    ),
  users: (id: number) => post<{ list: OrganisationUser[] }>('/admin/customer/users', { id }),
  invitations: (id: number) => post<{ list: Invitation[] }>('/admin/customer/invitations', { id }),
  priceLevels: (id: number) => post<{ list: PriceLevel[] }>('/admin/customer/priceLevels', { id }),
};
