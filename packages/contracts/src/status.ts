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
