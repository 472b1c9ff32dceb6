/**
 * What the benches over HTTP share: the client (autocannon at one concurrency), the `route + select 1`
 * floor every HTTP row is a ratio to, and a sign-in code the bench knows (codes are otherwise mailed).
 */
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import type { Database, Db } from '../apps/server/src/db/client.ts';
import { verificationCodes } from '../apps/server/src/modules/auth/schema.ts';

export const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
export const CONNECTIONS = 10;
export const sha256 = (t: string) => createHash('sha256').update(t).digest('hex');

/** Seconds of the same load before each measured run, not counted: caches filled and code compiled. */
export const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 1);

/**
 * Requests a second at the bench's concurrency, in the steady state (after a warm-up of the same calls);
 * any answer but 2xx fails the row.
 */
export async function rps(url: string, options: Partial<autocannon.Options> = {}): Promise<number> {
  if (WARM_UP > 0) await autocannon({ url, connections: CONNECTIONS, duration: WARM_UP, ...options });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, ...options });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

/** The floor: one `select 1` on the same pool behind a bare route, over HTTP with the same client. */
export async function routeSelectOne(database: Database): Promise<number> {
  const bare = Fastify();
  bare.get('/select1', async () => {
    await database.db.execute(sql`select 1`);
    return { code: 200, msg: 'ok', data: null };
  });
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const { port } = bare.server.address() as AddressInfo;
  const value = await rps(`http://127.0.0.1:${port}/select1`);
  await bare.close();
  return value;
}

/** Stores a live sign-in code the bench chose for this address, as the server would have mailed one. */
export async function storeSignInCode(db: Db, tenantId: number, email: string, code: string) {
  await db.insert(verificationCodes).values({
    tenantId,
    email,
    purpose: 'login',
    codeHash: sha256(`${email}:${code}`),
    expiresAt: new Date(Date.now() + 600_000),
  });
}
