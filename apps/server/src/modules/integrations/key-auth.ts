import { ResultCode } from '@freight/contracts/api';
import { API_KEY_ID_LENGTH, type ApiKeyScope } from '@freight/contracts/integrations';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { AppError, forbidden, sessionInvalid } from '../../lib/errors.ts';
import { findUser, type UserRow } from '../auth/service.ts';
import { consumeLimit, type LimitRule } from '../limits/service.ts';
import { type ApiKeyRow, findLiveApiKey, touchApiKey } from './service.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route also accepts an API key (headers `apiId` and `userKey`) whose scopes include this one.
     * Routes without it refuse every key.
     */
    apiKey?: ApiKeyScope;
    /** Only a key is accepted, never a session: the calls made for external systems. */
    apiKeyOnly?: boolean;
  }
  interface FastifyRequest {
    /** The key the call was made with, when it was made with one. */
    apiKey?: { id: number; prefix: string; scopes: ApiKeyScope[] };
  }
}

/**
 * Calls made with one key, per minute (times `RATE_LIMIT_SCALE`), counted in the shared store so every
 * process adds to one count: an integration pricing a day's orders stays well inside, a loop does not.
 */
export const API_KEY_LIMIT: LimitRule = { max: 600, windowMs: 60_000 };

export interface ApiKeyHeaders {
  apiId: string;
  userKey: string;
}

const one = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? '';

/** The key headers of a call (either one counts: a call that sends half a key is refused, not let through). */
export function apiKeyHeaders(request: FastifyRequest): ApiKeyHeaders | null {
  const apiId = one(request.headers.apiid).trim();
  const userKey = one(request.headers.userkey).trim();
  if (!apiId && !userKey) return null;
  return { apiId, userKey };
}

/**
 * The key's user for a call made with a key, or an error: an unknown, revoked, other tenant's or
 * mismatched key, or a disabled user, is code 300 like a dead session; a route that takes no key, or
 * a scope the key lacks, is code 401. Counts the call against the key's limit.
 */
export async function authenticateApiKey(
  db: Db,
  request: FastifyRequest,
  headers: ApiKeyHeaders,
  limitScale: number,
): Promise<{ user: UserRow; key: ApiKeyRow }> {
  const { apiId, userKey } = headers;
  if (!apiId || !userKey || apiId.length !== API_KEY_ID_LENGTH) throw sessionInvalid('apiKey.invalid');
  const key = await findLiveApiKey(db, request.tenant.id, userKey);
  if (!key || key.prefix !== apiId) throw sessionInvalid('apiKey.invalid');
  const user = await findUser(db, key.tenantId, key.userId);
  if (!user?.enabled) throw sessionInvalid('apiKey.invalid');
  const scope = request.routeOptions.config?.apiKey;
  if (!scope) throw forbidden('apiKey.routeNotAllowed');
  if (!key.scopes.includes(scope))
    throw new AppError(ResultCode.Forbidden, 'apiKey.scopeNotAllowed', { scope });
  await consumeLimit(db, `apikey:${key.id}`, API_KEY_LIMIT, limitScale);
  await touchApiKey(db, key.tenantId, key.id);
  request.apiKey = { id: key.id, prefix: key.prefix, scopes: key.scopes };
  return { user, key };
}
