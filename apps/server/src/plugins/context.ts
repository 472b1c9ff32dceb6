import type { Language } from '@freight/contracts/api';
import type { Identity } from '@freight/contracts/identity';
import type { MessageKey } from '@freight/contracts/messages';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/client.ts';
import type { UserRow } from '../modules/auth/service.ts';
import type { UserGrants } from '../modules/roles/service.ts';
import type { TenantBranding, TenantSettings } from '../modules/site/schema.ts';

export interface RequestTenant {
  id: number;
  code: string;
  name: string;
  branding: TenantBranding;
  settings: TenantSettings;
}

export interface RequestUser {
  id: number;
  tenantId: number;
  email: string;
  name: string;
  company: string;
  identity: Identity;
  organisationId: number | null;
  locale: string;
  /** Role codes (`admin`, `editor`, ...) and the identity, for the client's route metadata. */
  roles: string[];
  /** Granted menu paths and button keys. */
  grants: Set<string>;
  sessionHash: string;
}

/**
 * A user as a request acts: the user's row and grants. A request signed in by session carries the
 * session's hash; one by API key, or work done later for the user (an export job), carries none.
 */
export function requestUserOf(user: UserRow, grants: UserGrants, sessionHash = ''): RequestUser {
  return {
    id: user.id,
    tenantId: user.tenantId,
    email: user.email,
    name: user.name,
    company: user.company,
    identity: user.identity,
    organisationId: user.organisationId,
    locale: user.locale,
    roles: grants.roleCodes.length > 0 ? grants.roleCodes : [user.identity],
    grants: grants.keys,
    sessionHash,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
  }
  interface FastifyRequest {
    tenant: RequestTenant;
    user: RequestUser | null;
    language: Language;
    /** Set by a handler to tell the audit log which record it touched. */
    auditTarget?: string;
    /** Set by a handler that signs someone in: who the log names when there was no session yet. */
    auditUser?: { id: number | null; email: string };
  }
  interface FastifyReply {
    /** The success message key of the envelope; `ok` by default. */
    messageKey?: MessageKey;
    messageParams?: Record<string, string | number>;
  }
  interface FastifyContextConfig {
    /** No session needed. */
    public?: boolean;
    /** A health probe: answered without a tenant or a session, so it answers while the database is away. */
    probe?: boolean;
    /** The grant (menu path or button key) the caller must hold; with a list, any one of them. */
    permission?: string | readonly string[];
    /** Writes the call to the operation log under this action name. */
    audit?: string;
    /** The handler writes the raw reply (files, HTML): no envelope. */
    raw?: boolean;
    /** Whose wording of field names the route's messages use first (`catalogue:code`...). */
    labelScope?: string;
  }
}

/** The signed-in user; routes without `public` are guarded, so it is always there in their handlers. */
export function currentUser(request: { user: RequestUser | null }): RequestUser {
  if (!request.user) throw new Error('route is public but asked for the user');
  return request.user;
}
