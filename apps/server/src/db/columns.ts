import { deflateSync, inflateSync } from 'node:zlib';
import { bigint, customType, timestamp } from 'drizzle-orm/pg-core';

/** Every business table carries the tenant; keys lead with it so tables can be distributed by it. */
export const tenantId = () => bigint('tenant_id', { mode: 'number' }).notNull();
export const id = () => bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity();
export const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp('updated_at', { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/** The first byte of a zlib stream; no JSON text starts with it (`x`). */
const ZLIB_HEADER = 0x78;

/**
 * JSON kept deflated in a `bytea`: for a large value rewritten often and never looked into by SQL (a
 * quote's prices, some 16 KB of JSON, deflate to about 1 KB). The database then neither parses it as
 * jsonb nor moves it out of the row, and the connection carries a fourteenth of it. Plain JSON text
 * reads too, as a jsonb column converted with `convert_to(col::text, 'UTF8')` holds it.
 */
export const packedJson = customType<{ data: unknown; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  // Level 1: the fastest, and already most of the gain on repetitive JSON.
  toDriver: (value) => deflateSync(JSON.stringify(value), { level: 1 }),
  fromDriver: (raw) => {
    const bytes = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    return JSON.parse((bytes[0] === ZLIB_HEADER ? inflateSync(bytes) : bytes).toString('utf8'));
  },
});
