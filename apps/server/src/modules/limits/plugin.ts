import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { databaseStore, LIMITS, type LimitRule, scaled } from './service.ts';

/**
 * Per-IP limits with @fastify/rate-limit, counted in the database so every process shares them. Every
 * public call shares one count per IP (`LIMITS.publicPerIp`); a route may set its own with
 * `config.rateLimit: routeLimit(app, rule)`. Calls with a session are not limited here.
 */
export const rateLimitPlugin = fp(async (app: FastifyInstance) => {
  const rule = LIMITS.publicPerIp;
  await app.register(rateLimit, {
    global: true,
    max: scaled(rule, app.config.RATE_LIMIT_SCALE),
    timeWindow: rule.windowMs,
    store: databaseStore(app.db),
    // Health probes are not counted: the balancer calls them every second, and they must answer while
    // the database (where the counts live) is away.
    allowList: (request) => !request.routeOptions.config?.public || !!request.routeOptions.config?.probe,
    // The envelope's error handler answers 429 in the user's language; the plugin has set Retry-After.
    errorResponseBuilder: (_request, context) =>
      Object.assign(new Error('rate limit exceeded'), { statusCode: context.statusCode }),
  });
});

/** A route's own per-IP limit; `group` makes routes that are one call under two paths share a count. */
export function routeLimit(app: FastifyInstance, rule: LimitRule, group?: string) {
  return {
    max: scaled(rule, app.config.RATE_LIMIT_SCALE),
    timeWindow: rule.windowMs,
    ...(group ? { groupId: group } : {}),
  };
}
