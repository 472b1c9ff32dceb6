import type { OrganisationType } from '@freight/contracts/identity';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, updatedAt } from '../../db/columns.ts';

/**
 * The organisation tree: branch -> agent -> customer; a direct customer hangs off the platform
 * (no parent) or a branch. `path` is the ids from the root, `/1/7/12/`, so a subtree is a prefix match.
 */
export const organisations = pgTable(
  'organisations',
  {
    tenantId: tenantId(),
    id: id(),
    parentId: bigint('parent_id', { mode: 'number' }),
    type: text('type').$type<OrganisationType>().notNull(),
    name: text('name').notNull(),
    path: text('path').notNull().default(''),
    contactName: text('contact_name').notNull().default(''),
    contactEmail: text('contact_email').notNull().default(''),
    contactPhone: text('contact_phone').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('organisations_path').on(t.tenantId, t.path.op('text_pattern_ops')),
  ],
);

/** Codes an organisation hands out; a shipper registering with one lands under that organisation. */
export const invitationCodes = pgTable(
  'invitation_codes',
  {
    tenantId: tenantId(),
    id: id(),
    code: text('code').notNull(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    createdBy: bigint('created_by', { mode: 'number' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    uniqueIndex('invitation_codes_code').on(t.tenantId, t.code),
  ],
);

/**
 * The markup a parent sets for a child organisation, per business line and optionally per product or
 * channel (`productKey` empty means every one of the line). The child's price = the parent's price
 * with this markup on top; see `priceChain` in the contracts.
 */
export const priceLevels = pgTable(
  'price_levels',
  {
    tenantId: tenantId(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    line: text('line').$type<'truck' | 'express'>().notNull(),
    productKey: text('product_key').notNull().default(''),
    markupPercentBp: integer('markup_percent_bp').notNull().default(0),
    markupFixedCents: bigint('markup_fixed_cents', { mode: 'bigint' }).notNull().default(sql`0`),
    updatedBy: bigint('updated_by', { mode: 'number' }),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.organisationId, t.line, t.productKey] })],
);
