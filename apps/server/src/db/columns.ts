import { inflateSync } from 'node:zlib';
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
 * JSON kept as text in a `bytea`: for a large value rewritten often and never looked into by SQL (a
 * quote's prices, some 16 KB of JSON). The database neither parses it as jsonb on every write nor
 * builds it back on every read; it compresses it with the column's method (lz4 on PostgreSQL, migration
 * 0036), which costs a fraction of deflating it here, on the process every request waits for. Values
 * written deflated before (they start with the zlib header) and a jsonb column converted with
 * `convert_to(col::text, 'UTF8')` read the same.
 */
export const packedJson = customType<{ data: unknown; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => Buffer.from(JSON.stringify(value)),
  fromDriver: (raw) => {
    const bytes = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    return JSON.parse((bytes[0] === ZLIB_HEADER ? inflateSync(bytes) : bytes).toString('utf8'));
  },
});
