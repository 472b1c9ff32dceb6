import { bigint, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId } from '../../db/columns.ts';

/** Who did what, to which record, with what result: one row per mutating call. */
export const operationLogs = pgTable(
  'operation_logs',
  {
    tenantId: tenantId(),
    id: id(),
    userId: bigint('user_id', { mode: 'number' }),
    userEmail: text('user_email').notNull().default(''),
    action: text('action').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    target: text('target').notNull().default(''),
    /** The envelope code of the answer. */
    resultCode: integer('result_code').notNull(),
    ip: text('ip').notNull().default(''),
    requestId: text('request_id').notNull().default(''),
    detail: jsonb('detail').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('operation_logs_time').on(t.tenantId, t.createdAt, t.id),
  ],
);
