import { normalizeIP } from '@fastify/rate-limit';
import { lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { type BatchOptions, deleteInBatches } from '../../lib/batched-delete.ts';
import { tooMany } from '../../lib/errors.ts';
import { rateLimitHits } from './schema.ts';

/** One limit: at most `max` hits per fixed window of `windowMs`, before `RATE_LIMIT_SCALE`. */
export interface LimitRule {
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;

/**
 * The production limits (docs/decisions.md, "Request limits"). `perIp` rules are applied by
 * @fastify/rate-limit on the route; `perAddress` rules are checked by the service once the e-mail is
 * known (it may arrive encrypted), keyed by the address together with the client's IP.
 */
export const LIMITS = {
  /** Any public call, per IP: a page load makes a handful; a script makes hundreds. */
  publicPerIp: { max: 300, windowMs: MINUTE },
  /** Every sign-in, right or wrong; failures also lock (auth `LOGIN_MAX_FAILURES*`). */
  signInPerIp: { max: 60, windowMs: 15 * MINUTE },
  codePerIp: { max: 20, windowMs: 60 * MINUTE },
  codePerAddress: { max: 10, windowMs: 60 * MINUTE },
  resetPerIp: { max: 10, windowMs: 60 * MINUTE },
  resetPerAddress: { max: 5, windowMs: 60 * MINUTE },
  registerPerIp: { max: 10, windowMs: 60 * MINUTE },
  registerPerAddress: { max: 10, windowMs: 60 * MINUTE },
  /** Yes-or-no checks of an invitation code: enough for typos, too few to try codes by the thousand. */
  invitationPerIp: { max: 20, windowMs: 10 * MINUTE },
  /** Files sent with no session (a registration's licence, one or two of them). */
  anonymousUploadPerIp: { max: 10, windowMs: 60 * MINUTE },
} as const satisfies Record<string, LimitRule>;

/** The longest window of any rule: rows older than this belong to no live window. */
const LONGEST_WINDOW_MS = 60 * MINUTE;

/**
 * The client as the limits see it: an IPv4 address, or the /64 network of an IPv6 one (one subscriber
 * holds a whole /64, so counting single IPv6 addresses would count nothing). The same rule as the
 * per-IP limits of the routes.
 */
export const clientOf = (ip: string) => normalizeIP(ip, 64);

export interface Hit {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  ttlMs: number;
}

/**
 * Counts one hit on `key` in a fixed window: one atomic upsert, which starts a new window (count 1)
 * when the stored one has passed. Every process shares the row, so they share the count.
 */
export async function hit(db: DbOrTx, key: string, windowMs: number): Promise<Hit> {
  const window = sql`(${windowMs}::double precision * interval '1 millisecond')`;
  const expired = sql`${rateLimitHits.windowStart} <= now() - ${window}`;
  const [row] = await db
    .insert(rateLimitHits)
    .values({ key, windowStart: sql`now()`, count: 1 })
    .onConflictDoUpdate({
      target: rateLimitHits.key,
      set: {
        windowStart: sql`case when ${expired} then now() else ${rateLimitHits.windowStart} end`,
        count: sql`case when ${expired} then 1 else ${rateLimitHits.count} + 1 end`,
      },
    })
    .returning({
      count: rateLimitHits.count,
      ttlMs: sql<number>`greatest(0, ceil(extract(epoch from (${rateLimitHits.windowStart} + ${window} - now())) * 1000))::int`,
    });
  return { count: row?.count ?? 1, ttlMs: Number(row?.ttlMs ?? windowMs) };
}

/**
 * Deletes rows whose window has passed, in bounded batches; run by the housekeeping pass. A row renewed
 * by a hit while the batch runs is left alone.
 */
export function sweepExpiredHits(
  db: DbOrTx,
  options: BatchOptions & { olderThanMs?: number } = {},
): Promise<number> {
  const cutoff = new Date(Date.now() - (options.olderThanMs ?? LONGEST_WINDOW_MS));
  return deleteInBatches(db, rateLimitHits, lt(rateLimitHits.windowStart, cutoff), options);
}

/** A rule's limit in force: production numbers times `RATE_LIMIT_SCALE`. */
export const scaled = (rule: LimitRule, scale: number) => Math.max(1, Math.round(rule.max * scale));

/**
 * Counts a hit on a key the service chose (an address with its IP, say) and refuses past the limit
 * with 429 and how long to wait. Same store and window rule as the per-IP limits of the routes.
 */
export async function consumeLimit(db: DbOrTx, key: string, rule: LimitRule, scale: number): Promise<void> {
  const { count, ttlMs } = await hit(db, key, rule.windowMs);
  if (count > scaled(rule, scale)) throw tooMany('error.tooMany', {}, Math.max(1, Math.ceil(ttlMs / 1000)));
}

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * The store @fastify/rate-limit counts in: the `rate_limit_hits` table. A route with its own limit gets
 * a child whose keys carry the route (or its `groupId`), so its count is apart from the shared
 * per-IP count of public calls.
 */
export function databaseStore(db: DbOrTx) {
  return class DatabaseStore {
    readonly prefix: string;
    constructor(options: { prefix?: string } = {}) {
      this.prefix = options.prefix ?? 'public';
    }
    incr(key: string, callback: IncrCallback, timeWindow: number) {
      hit(db, `${this.prefix}:${key}`, timeWindow).then(
        ({ count, ttlMs }) => callback(null, { current: count, ttl: ttlMs }),
        (error: Error) => callback(error),
      );
    }
    // Called with the route's merged limit options (its `groupId`, and `routeInfo`: the route itself).
    child(options: unknown) {
      const { groupId, routeInfo } = options as {
        groupId?: string;
        routeInfo?: { method?: unknown; url?: string };
      };
      return new DatabaseStore({ prefix: groupId ?? `${String(routeInfo?.method)} ${routeInfo?.url}` });
    }
  };
}
