import type { BusinessLine } from '@freight/contracts/accounts';
import type { InvoiceStatus } from '@freight/contracts/invoices';
import { bigint, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId, updatedAt } from '../../db/columns.ts';

/** A customer's request for an invoice over a period of one line; staff issue or refuse it. */
export const invoices = pgTable(
  'invoices',
  {
    tenantId: tenantId(),
    id: id(),
    organisationId: bigint('organisation_id', { mode: 'number' }).notNull(),
    line: text('line').$type<BusinessLine>().notNull(),
    periodFrom: timestamp('period_from', { withTimezone: true }).notNull(),
    periodTo: timestamp('period_to', { withTimezone: true }).notNull(),
    /** Order payments less refunds in the period, fixed when requested. */
    amount: bigint('amount_cents', { mode: 'bigint' }).notNull(),
    title: text('title').notNull(),
    taxNumber: text('tax_number').notNull(),
    email: text('email').notNull(),
    note: text('note').notNull().default(''),
    status: text('status').$type<InvoiceStatus>().notNull().default('requested'),
    invoiceNumber: text('invoice_number'),
    fileUrl: text('file_url'),
    refusalReason: text('refusal_reason'),
    requestedBy: bigint('requested_by', { mode: 'number' }).notNull(),
    decidedBy: bigint('decided_by', { mode: 'number' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('invoices_org').on(t.tenantId, t.organisationId, t.createdAt),
    index('invoices_org_id').on(t.tenantId, t.organisationId, t.id),
  ],
);
