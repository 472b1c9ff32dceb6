import { z } from 'zod';
import { timestamp } from './responses.ts';

/** The public status page's data: version, server time, database health. */
export const healthView = z.object({
  version: z.string(),
  serverTime: timestamp,
  uptimeSeconds: z.number().int(),
  database: z.object({
    kind: z.enum(['pglite', 'postgres']),
    ok: z.boolean(),
    latencyMs: z.number(),
  }),
});

/**
 * The readiness check a load balancer polls (`/api/health/ready`): the database answers and every
 * migration of this release is applied. Answered with 200 when ready, 503 (same data) when not.
 */
export const readinessView = z.object({
  ready: z.boolean(),
  /** Set while the process drains on its way out: take it out of rotation. */
  shuttingDown: z.boolean(),
  database: z.object({ ok: z.boolean(), latencyMs: z.number() }),
  migrations: z.object({ applied: z.number().int(), expected: z.number().int() }),
});
