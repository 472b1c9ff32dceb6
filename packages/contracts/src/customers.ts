import { z } from 'zod';
import { ACCOUNT_ACTIONS, ACCOUNT_STATUSES, BUSINESS_LINES } from './accounts.ts';
import { pageQuery } from './api.ts';
import type { OrganisationType } from './identity.ts';
import { IDENTITIES, ORGANISATION_TYPES } from './identity.ts';
import { listOf, moneyString, pageOf, timestamp } from './responses.ts';
import { emailField, moneyField, passwordField, str } from './validation.ts';

/** Which list a customer page shows (SPEC section 2 customer routes). */
export const CUSTOMER_LIST_KINDS = [
  'branch',
  'agent',
  'agentCustomer',
  'directCustomer',
  'allCustomer',
] as const;
export type CustomerListKind = (typeof CUSTOMER_LIST_KINDS)[number];

/** Which child types a parent may have; `platform` is the tenant itself (no parent). */
export const CHILD_TYPES: Record<OrganisationType | 'platform', readonly OrganisationType[]> = {
  platform: ['branch', 'customer'],
  branch: ['agent', 'customer'],
  agent: ['customer'],
  customer: [],
};

export const customerListQuery = pageQuery.extend({
  kind: z.enum(CUSTOMER_LIST_KINDS),
  line: z.enum(BUSINESS_LINES).default('truck'),
  keyword: str().trim().max(100).optional(),
  enabled: z.boolean().optional(),
  parentId: z.number().int().positive().optional(),
});
export type CustomerListQuery = z.infer<typeof customerListQuery>;

const text = (max: number) => str().trim().min(1).max(max);

export const organisationSaveBody = z.object({
  id: z.number().int().positive().optional(),
  type: z.enum(['branch', 'agent', 'customer']),
  parentId: z.number().int().positive().nullable().default(null),
  name: text(100),
  contactName: str().trim().max(50).default(''),
  contactEmail: z.union([emailField, z.literal('')]).default(''),
  contactPhone: str().trim().max(30).default(''),
  /** The organisation's first user, on create only. */
  user: z.object({ email: emailField, name: text(50), password: passwordField }).optional(),
});
export type OrganisationSaveBody = z.infer<typeof organisationSaveBody>;

export const organisationStatusBody = z.object({ id: z.number().int().positive(), enabled: z.boolean() });

export const organisationUserSaveBody = z.object({
  id: z.number().int().positive().optional(),
  organisationId: z.number().int().positive(),
  email: emailField,
  name: text(50),
  phone: str().trim().max(30).default(''),
  password: passwordField.optional(),
});

export const invitationCreateBody = z.object({
  organisationId: z.number().int().positive(),
  expiresInDays: z.number().int().min(1).max(365).optional(),
});

/** Markup a parent sets for a child: a percentage (up to 2 decimals) and/or a fixed amount per order. */
export const priceLevelSaveBody = z.object({
  organisationId: z.number().int().positive(),
  line: z.enum(BUSINESS_LINES),
  /** Empty for every product or channel of the line; a product or channel key once those exist. */
  productKey: str().trim().max(60).default(''),
  markupPercent: str().regex(/^\d{1,3}(\.\d{1,2})?$/, { error: 'validation.percent' }),
  markupFixed: moneyField,
});

/** Removes an organisation's markup for one product or channel, so the line's default prices it again. */
export const priceLevelDeleteBody = priceLevelSaveBody.pick({
  organisationId: true,
  line: true,
  productKey: true,
});

export interface Markup {
  /** Basis points: 1250 is 12.50 %. */
  percentBp: number;
  fixedCents: bigint;
}

/** A price with a markup on top, rounded half up to the cent. */
export function applyMarkup(cents: bigint, markup: Markup): bigint {
  const scaled = cents * BigInt(10_000 + markup.percentBp);
  const rounded = (scaled + 5_000n) / 10_000n;
  return rounded + markup.fixedCents;
}

/**
 * The price at each level of the hierarchy, from the operator's cost down to the customer: each
 * level's price is the level above plus the markup that level's parent set for it.
 */
export function priceChain(costCents: bigint, markups: readonly Markup[]): bigint[] {
  const prices = [costCents];
  for (const markup of markups) prices.push(applyMarkup(prices[prices.length - 1] as bigint, markup));
  return prices;
}

export function parsePercentBp(text: string): number {
  const [whole = '0', fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

export function formatPercentBp(bp: number): string {
  return `${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, '0')}`;
}

export const accountActionBody = z.object({
  accountId: z.number().int().positive(),
  reason: str().trim().min(1).max(200),
});
export const creditLimitBody = accountActionBody.extend({ creditLimit: moneyField });
export const adjustmentBody = accountActionBody.extend({
  /** Signed: "-12.50" deducts. */
  amount: str().regex(/^-?\d{1,13}(\.\d{1,2})?$/, { error: 'validation.money' }),
  /**
   * The caller's own name for this adjustment, new for each one it means to make (a random UUID will
   * do): the same key again, a double submit or a retry after a lost answer, adjusts once.
   */
  requestKey: str().regex(/^[A-Za-z0-9_-]{16,64}$/, { error: 'validation.requestKey' }),
});

/* ----- responses ----- */

/** An organisation's account on one line as the customer lists show it; `actions` are the caller's. */
export const accountSummaryView = z.object({
  id: z.number().int(),
  status: z.enum(ACCOUNT_STATUSES),
  balance: moneyString,
  creditLimit: moneyString,
  frozen: moneyString,
  deposit: moneyString,
  available: moneyString,
  actions: z.array(z.enum(ACCOUNT_ACTIONS)),
});

export const organisationRowView = z.object({
  id: z.number().int(),
  type: z.enum(ORGANISATION_TYPES),
  name: z.string(),
  parentId: z.number().int().nullable(),
  parentName: z.string().nullable(),
  parentType: z.enum(ORGANISATION_TYPES).nullable(),
  contactName: z.string(),
  contactEmail: z.string(),
  contactPhone: z.string(),
  enabled: z.boolean(),
  createdAt: timestamp,
  userCount: z.number().int(),
  account: accountSummaryView.nullable(),
});
export const organisationListView = pageOf(organisationRowView);

export const parentOptionsView = z.object({
  list: z.array(z.object({ id: z.number().int(), name: z.string(), type: z.enum(ORGANISATION_TYPES) })),
  /** Whether the organisation may sit directly under the platform. */
  platformAllowed: z.boolean(),
});

export const organisationInfoView = z.object({
  tenantId: z.number().int(),
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  type: z.enum(ORGANISATION_TYPES),
  name: z.string(),
  path: z.string(),
  contactName: z.string(),
  contactEmail: z.string(),
  contactPhone: z.string(),
  enabled: z.boolean(),
  createdAt: timestamp,
  updatedAt: timestamp,
  parentName: z.string().nullable(),
  parentType: z.enum(ORGANISATION_TYPES).nullable(),
});

export const organisationUserView = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  phone: z.string(),
  identity: z.enum(IDENTITIES),
  enabled: z.boolean(),
  lastLoginAt: timestamp.nullable(),
  createdAt: timestamp,
  /** The licence uploaded at registration; a private file, loaded with the session. */
  licenseUrl: z.string().nullable(),
});
export const organisationUsersView = listOf(organisationUserView);

export const invitationView = z.object({
  id: z.number().int(),
  code: z.string(),
  expiresAt: timestamp.nullable(),
  revokedAt: timestamp.nullable(),
  createdAt: timestamp,
  live: z.boolean(),
});
export const invitationsView = listOf(invitationView);
export const invitationCreatedView = z.object({ code: z.string() });

export const priceLevelView = z.object({
  line: z.enum(BUSINESS_LINES),
  productKey: z.string(),
  /** Percent with two places, "12.50". */
  markupPercent: z.string(),
  markupFixed: moneyString,
  updatedAt: timestamp,
});
export const priceLevelsView = listOf(priceLevelView);
