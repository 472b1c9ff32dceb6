import { z } from 'zod';
import { BUSINESS_LINES } from './accounts.ts';
import { pageQuery } from './api.ts';
import { moneyString, pageOf, timestamp } from './responses.ts';
import { defineStateMachine } from './state-machine.ts';
import { emailField, instantField, str } from './validation.ts';

export const INVOICE_STATUSES = ['requested', 'issued', 'refused'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_ACTIONS = ['issue', 'refuse'] as const;
export type InvoiceAction = (typeof INVOICE_ACTIONS)[number];

/** A request is decided once, by staff: issued (with its number) or refused (with a reason). */
export const invoiceMachine = defineStateMachine<InvoiceStatus, InvoiceAction, 'staff'>([
  { from: 'requested', action: 'issue', to: 'issued', who: ['staff'] },
  { from: 'requested', action: 'refuse', to: 'refused', who: ['staff'] },
]);

export const invoiceRequestBody = z
  .object({
    line: z.enum(BUSINESS_LINES),
    periodFrom: instantField(),
    periodTo: instantField(),
    title: str().trim().min(1).max(120),
    taxNumber: str().trim().min(1).max(40),
    email: emailField,
    note: str().trim().max(200).default(''),
  })
  .superRefine((v, ctx) => {
    if (v.periodTo < v.periodFrom)
      ctx.addIssue({ code: 'custom', path: ['periodTo'], message: 'invoices.periodOrder' });
  });

export const invoiceListQuery = pageQuery.extend({
  line: z.enum(BUSINESS_LINES).optional(),
  status: z.enum(INVOICE_STATUSES).optional(),
  organisationId: z.number().int().positive().optional(),
  /** Part of the organisation's name, contact or contact e-mail. */
  keyword: str().trim().max(100).optional(),
  /** Requested at or after `from`, before `to`. */
  from: instantField().optional(),
  to: instantField().optional(),
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuery>;

export const invoiceIssueBody = z.object({
  id: z.number().int().positive(),
  invoiceNumber: str().trim().min(1).max(60),
  fileUrl: str().trim().max(500).nullable().default(null),
});

export const invoiceRefuseBody = z.object({
  id: z.number().int().positive(),
  reason: str().trim().min(1).max(200),
});

/* ----- responses ----- */

/** An invoice request as the API shows it; `actions` are what the caller may do to it now. */
export const invoiceView = z.object({
  id: z.number().int(),
  organisationId: z.number().int(),
  organisationName: z.string(),
  line: z.enum(BUSINESS_LINES),
  periodFrom: timestamp,
  periodTo: timestamp,
  amount: moneyString,
  title: z.string(),
  taxNumber: z.string(),
  email: z.string(),
  note: z.string(),
  status: z.enum(INVOICE_STATUSES),
  invoiceNumber: z.string().nullable(),
  fileUrl: z.string().nullable(),
  refusalReason: z.string().nullable(),
  decidedAt: timestamp.nullable(),
  createdAt: timestamp,
  actions: z.array(z.enum(INVOICE_ACTIONS)),
});
export const invoiceListView = pageOf(invoiceView);
