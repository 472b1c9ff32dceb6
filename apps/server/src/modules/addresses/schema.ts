import type { ExpressAddressKind } from '@freight/contracts/addresses';
import type { AddressType } from '@freight/contracts/truck-shipment';
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, updatedAt } from '../../db/columns.ts';

/**
 * The truck address book (`/addressmanagement`): an organisation's saved ends of a shipment, with every
 * field of the quote form's address so the form can be filled from one.
 */
export const addressBook = pgTable(
  'address_book',
  {
    tenantId: tenantId(),
    id: id(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    name: text('name').notNull(),
    address1: text('address1').notNull(),
    address2: text('address2').notNull().default(''),
    zipcode: text('zipcode').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    country: text('country').notNull().default('US'),
    contact: text('contact').notNull(),
    dialCode: text('dial_code').notNull().default('1'),
    phone: text('phone').notNull(),
    email: text('email').notNull().default(''),
    windowStart: text('window_start').notNull().default('09:00'),
    windowEnd: text('window_end').notNull().default('17:00'),
    addressType: text('address_type').$type<AddressType>().notNull().default('business'),
    fbaCode: text('fba_code').notNull().default(''),
    isDefaultPickup: boolean('is_default_pickup').notNull().default(false),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('address_book_organisation').on(t.tenantId, t.organisationId),
    // At most one default pickup address per organisation, held by the database, not by the handler.
    uniqueIndex('address_book_default_pickup')
      .on(t.tenantId, t.organisationId)
      .where(sql`${t.isDefaultPickup}`),
  ],
);

/**
 * The express address book (`/addressList`): an organisation's parcel senders, recipients and return
 * addresses, in the express quote's fields (abroad too: the ZIP and state are free text outside the US).
 * Kept apart from the truck book, whose entries are US docks with pickup windows and truck address types.
 */
export const expressAddresses = pgTable(
  'express_addresses',
  {
    tenantId: tenantId(),
    id: id(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    kind: text('kind').$type<ExpressAddressKind>().notNull(),
    /** The person on the label. */
    name: text('name').notNull(),
    company: text('company').notNull().default(''),
    address1: text('address1').notNull(),
    address2: text('address2').notNull().default(''),
    city: text('city').notNull(),
    state: text('state').notNull().default(''),
    zipcode: text('zipcode').notNull(),
    country: text('country').notNull().default('US'),
    dialCode: text('dial_code').notNull().default('1'),
    phone: text('phone').notNull(),
    email: text('email').notNull().default(''),
    residential: boolean('residential').notNull().default(false),
    isDefault: boolean('is_default').notNull().default(false),
    createdBy: bigint('created_by', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('express_addresses_organisation').on(t.tenantId, t.organisationId, t.kind),
    // At most one default per organisation and kind, held by the database.
    uniqueIndex('express_addresses_default')
      .on(t.tenantId, t.organisationId, t.kind)
      .where(sql`${t.isDefault}`),
  ],
);
