import { EXPORT_AT_ONCE_MAX_ROWS } from '@freight/contracts/downloads';
import { z } from 'zod';
import { parseCredentialKey } from './modules/carriers/secrets.ts';

/** Refuses a malformed credentials key at start, so a typo never seals anything. */
function checkKeys(text: string | undefined, ctx: z.RefinementCtx) {
  for (const key of (text ?? '').split(',').filter((k) => k.trim()))
    try {
      parseCredentialKey(key);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
    }
}

const configSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8083),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** A streaming replica that reports and exports read from; unset, they read the primary. */
  DATABASE_REPLICA_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /**
   * On a Citus coordinator, spread the tables by tenant at start (db/citus.ts) and carry the tenant to
   * the workers in each transaction (db/tenant-scope.ts); docs/operations.md, "Running the portal on
   * Citus". Off by default: plain PostgreSQL and the embedded database need neither.
   */
  DATABASE_DISTRIBUTE: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** Connections in each pool (the primary's, and the replica's when there is one). */
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(20),
  /**
   * How long a query waits for a pooled connection (queued behind busy ones, or a new one opening)
   * before it is answered 503: long enough for a burst to queue, short enough for an outage to show.
   */
  DATABASE_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  DATA_DIR: z.string().min(1).default('./data'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Freight Portal <no-reply@localhost>'),
  UPLOAD_STORE: z.enum(['local', 's3']).default('local'),
  AD_SERVICE_URL: z.url().optional(),
  /** Base URL put into e-mailed links when the request's own origin is not trusted (behind a proxy). */
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 7),
  /** How long a truck quote's prices may be booked. */
  QUOTE_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(72),
  /**
   * How answers are held to their response schemas: `strict` fails a call whose answer does not
   * match (tests, development), `log` logs the mismatch and sends the answer anyway. Unset: `log` in
   * production, `strict` elsewhere.
   */
  RESPONSE_CHECK: z.enum(['strict', 'log']).optional(),
  /**
   * Multiplies every per-client request limit (sign-in, codes, public calls, anonymous uploads). 1 is
   * the production setting; test runs that sign in hundreds of times from one address raise it.
   */
  RATE_LIMIT_SCALE: z.coerce.number().min(1).max(100_000).default(1),
  /** How long SIGTERM waits for requests in flight before the process exits anyway. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0).max(600).default(10),
  /**
   * How often an idle job worker asks the database for work, in seconds (pg-boss's minimum is 0.5). A
   * job sent by this process wakes its workers at once; this bounds the wait for one sent by another.
   */
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(2),
  /**
   * An export of at most this many rows is answered at once; a bigger one is written by a job in the
   * download centre. Tests lower it to send small exports through the queue.
   */
  EXPORT_AT_ONCE_ROWS: z.coerce.number().int().min(0).max(100_000).default(EXPORT_AT_ONCE_MAX_ROWS),
  /** Seconds before a failed webhook delivery is tried again (doubling each time); tests lower it. */
  WEBHOOK_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * Whether webhook URLs may point to loopback or private addresses. Off in production (a customer's
   * URL must not reach the portal's own network), on by default elsewhere so local receivers work.
   */
  WEBHOOK_ALLOW_PRIVATE: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1')),
  /**
   * The key carrier credentials are sealed with (32 bytes: 64 hex digits or 44 base64 characters).
   * Outside production a key kept in `DATA_DIR` is used when unset; in production, unset means no carrier
   * account can be saved or used. README "Carrier accounts" says how to make and rotate one.
   */
  CARRIER_CREDENTIALS_KEY: z
    .string()
    .optional()
    .superRefine((text, ctx) => checkKeys(text, ctx)),
  /** Keys rows may still be sealed with while rotating, comma-separated; resealed with the key at start. */
  CARRIER_CREDENTIALS_OLD_KEYS: z
    .string()
    .optional()
    .superRefine((text, ctx) => checkKeys(text, ctx)),
  /**
   * Whether a carrier account's own base URL may point to loopback or private addresses (a Karrio
   * server on the operator's network). Off in production unless set, on elsewhere.
   */
  CARRIER_ALLOW_PRIVATE: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1')),
  /**
   * How often, in minutes, the carriers of express waybills booked through a carrier account are asked
   * where their parcels are (one process at a time polls; docs/carriers.md "Tracking"). 0 turns the
   * poll off; Karrio's webhooks still report.
   */
  CARRIER_TRACKING_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(15),
  /**
   * Seconds before a carrier label purchase the carrier did not answer (a timeout, a 5xx) is tried
   * again; each later try waits about twice as long (docs/carriers.md "Booking").
   */
  CARRIER_LABEL_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Seed the demo tenant on first start (on by default so a fresh clone has something to sign in to). */
  SEED_DEMO: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
});

export type Config = z.infer<typeof configSchema>;

/** The response check in force: the configured one, else `log` in production and `strict` elsewhere. */
export function responseCheckOf(config: Config): 'strict' | 'log' {
  return config.RESPONSE_CHECK ?? (config.NODE_ENV === 'production' ? 'log' : 'strict');
}

export class ConfigError extends Error {}

/** Reads the environment once; a wrong value stops the start with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...configSchema.parse({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      // The suite signs in hundreds of times from one address; the limits' own tests set it back to 1.
      RATE_LIMIT_SCALE: '1000',
      JOB_POLL_SECONDS: '0.5',
      // Tests run the carrier tracking poll when they mean to, never on a timer.
      CARRIER_TRACKING_MINUTES: '0',
      // A label purchase the carrier mock did not answer is tried again within seconds.
      CARRIER_LABEL_RETRY_SECONDS: '1',
    }),
    ...overrides,
  };
}
