import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { serialCounters } from './schema.ts';

/**
 * `count` consecutive numbers of a kind for today (UTC), e.g. `TK20261123000042`. One upsert takes
 * the whole range, so a batch of ten thousand orders costs one round trip, and numbers taken in a
 * transaction that rolls back are given back with it.
 */
export async function nextSerials(
  db: DbOrTx,
  tenantId: number,
  prefix: string,
  count = 1,
  now = new Date(),
): Promise<string[]> {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  const [row] = await db
    .insert(serialCounters)
    .values({ tenantId, kind: prefix, day, last: count })
    .onConflictDoUpdate({
      target: [serialCounters.tenantId, serialCounters.kind, serialCounters.day],
      set: { last: sql`${serialCounters.last} + ${count}` },
    })
    .returning({ last: serialCounters.last });
  if (!row) throw new Error('serial upsert returned nothing');
  const first = row.last - count + 1;
  return Array.from({ length: count }, (_, i) => `${prefix}${day}${String(first + i).padStart(6, '0')}`);
}

export async function nextSerial(db: DbOrTx, tenantId: number, prefix: string): Promise<string> {
  const [serial] = await nextSerials(db, tenantId, prefix, 1);
  return serial as string;
}
