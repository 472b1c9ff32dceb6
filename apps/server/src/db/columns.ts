import { bigint, timestamp } from 'drizzle-orm/pg-core';

/** Every business table carries the tenant; keys lead with it so tables can be distributed by it. */
export const tenantId = () => bigint('tenant_id', { mode: 'number' }).notNull();
export const id = () => bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity();
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
