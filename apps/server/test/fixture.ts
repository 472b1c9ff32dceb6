import { afterAll, beforeAll, expect } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { findUserByEmail } from '../src/modules/auth/service.ts';
import {
  type CallOptions,
  call,
  createTenant,
  createTestApp,
  signInAs,
  type TestContext,
  type TestTenant,
  type Who,
} from './helpers.ts';

export { isoDay } from './helpers.ts';

import { truckTenant } from './truck-fixtures.ts';

type Language = NonNullable<CallOptions['language']>;
type Envelope = { code: number; msg: string; data: any };

/** One way of calling the API: a tenant's host, a session (or none) and a language. */
export interface Caller {
  readonly tenant: TestTenant;
  readonly token: string | undefined;
  post(url: string, body?: unknown, language?: Language | null): ReturnType<typeof call>;
  get(url: string, language?: Language | null): ReturnType<typeof call>;
  /** POSTs and expects code 200; answers `data`. */
  ok(url: string, body?: unknown): Promise<any>;
  /** POSTs and expects the given code (any but 200 unless told); answers the whole envelope. */
  fail(url: string, body: unknown, code?: number): Promise<Envelope>;
  /** The same caller speaking another language. */
  in(language: Language | null): Caller;
}

export interface FixtureOptions {
  /** How many tenants, each seeded with the demo users (1 unless told). */
  tenants?: number;
  /** Demo identities signed in before the first test: in every tenant, or one list per tenant. */
  signIn?: Who[] | Who[][];
  /** Gives the first tenant a truck product with one lane and the booking helpers (see truckTenant). */
  truck?: boolean;
  /** The language callers send unless told (zh-CN, as the browser's default). */
  language?: Language;
  /** Options of the app itself (configuration, a mailer, extra routes), or a function making them first thing. */
  app?: AppOptions | (() => AppOptions | Promise<AppOptions>);
}

type AppOptions = Parameters<typeof createTestApp>[0];

export type TruckHelpers = Awaited<ReturnType<typeof truckTenant>>;

export interface Fixture {
  readonly ctx: TestContext;
  readonly db: Db;
  /** The first tenant. */
  readonly t: TestTenant;
  readonly tenants: TestTenant[];
  /** The i-th tenant (0 is the first), which must exist. */
  tenant(i: number): TestTenant;
  /** The truck helpers of the first tenant, with `truck: true`. */
  readonly truck: TruckHelpers;
  /** A signed-in demo identity (of the first tenant unless told). */
  as(who: Who, tenant?: TestTenant): Caller;
  /** A caller with a session got elsewhere (a user a test created, say). */
  withToken(token: string | undefined, tenant?: TestTenant): Caller;
  /** A caller without a session. */
  anonymous(tenant?: TestTenant): Caller;
  /** Signs a demo identity in now (again, if it was); later `as` calls use the new session. */
  signIn(who: Who, tenant?: TestTenant): Promise<Caller>;
  /** The organisation of a demo identity (staff have none). */
  orgOf(who: Who, tenant?: TestTenant): Promise<number>;
  /** The user id of a demo identity. */
  userOf(who: Who, tenant?: TestTenant): Promise<number>;
}

/**
 * The setup every server test file needs, registered with vitest: an app on a fresh database, seeded
 * tenants and signed-in callers. Read its fields inside tests and hooks, not at module level.
 */
export function useTestApp(options: FixtureOptions = {}): Fixture {
  const language = options.language ?? 'zh-CN';
  let ctx: TestContext | undefined;
  let tenants: TestTenant[] = [];
  let truck: TruckHelpers | undefined;
  const tokens = new Map<string, string>();
  const key = (who: Who, tenant: TestTenant) => `${tenant.tenant.id}:${who}`;

  const ready = () => {
    if (!ctx) throw new Error('the test app is not open yet: use the fixture inside tests and hooks');
    return ctx;
  };
  const first = () => {
    ready();
    return tenants[0] as TestTenant;
  };

  function caller(tenant: TestTenant, token: string | undefined, lang: Language | null): Caller {
    const opts = (l: Language | null | undefined): CallOptions => ({
      host: tenant.host,
      token,
      language: l === undefined ? lang : l,
    });
    const self: Caller = {
      tenant,
      token,
      post: (url, body, l) => call(ready(), 'POST', url, body ?? {}, opts(l)),
      get: (url, l) => call(ready(), 'GET', url, null, opts(l)),
      async ok(url, body) {
        const res = await self.post(url, body);
        expect(res.json(), url).toMatchObject({ code: 200 });
        return res.json().data;
      },
      async fail(url, body, code) {
        const res = await self.post(url, body);
        const json = res.json();
        if (code === undefined) expect(json.code, url).not.toBe(200);
        else expect(json, url).toMatchObject({ code });
        return json;
      },
      in: (l) => caller(tenant, token, l),
    };
    return self;
  }

  beforeAll(async () => {
    ctx = await createTestApp(typeof options.app === 'function' ? await options.app() : options.app);
    for (let i = 0; i < (options.tenants ?? 1); i++) tenants.push(await createTenant(ctx));
    const lists = options.signIn ?? [];
    const perTenant = lists.some((w) => Array.isArray(w));
    for (const [i, tenant] of tenants.entries()) {
      const who = (perTenant ? ((lists as Who[][])[i] ?? []) : lists) as Who[];
      if (i === 0 && options.truck) {
        truck = await truckTenant(ctx, tenant, who.includes('admin') ? who : ['admin', ...who]);
        for (const [w, token] of Object.entries(truck.tokens)) tokens.set(key(w as Who, tenant), token);
        continue;
      }
      for (const w of who) tokens.set(key(w, tenant), await signInAs(ctx, tenant, w));
    }
  });
  afterAll(async () => {
    await ctx?.close();
    ctx = undefined;
    tenants = [];
  });

  async function userRow(who: Who, tenant: TestTenant) {
    const user = await findUserByEmail(ready().database.db, tenant.tenant.id, tenant.email(who));
    if (!user) throw new Error(`no demo user ${who} in ${tenant.host}`);
    return user;
  }

  return {
    get ctx() {
      return ready();
    },
    get db() {
      return ready().database.db;
    },
    get t() {
      return first();
    },
    get tenants() {
      ready();
      return tenants;
    },
    get truck() {
      if (!truck) throw new Error('no truck helpers: pass `truck: true`');
      return truck;
    },
    tenant(i) {
      const tenant = ready() && tenants[i];
      if (!tenant) throw new Error(`no tenant ${i}: ask for more with \`tenants\``);
      return tenant;
    },
    as(who, tenant = first()) {
      const token = tokens.get(key(who, tenant));
      if (!token) throw new Error(`${who} of ${tenant.host} is not signed in: add it to \`signIn\``);
      return caller(tenant, token, language);
    },
    withToken: (token, tenant = first()) => caller(tenant, token, language),
    anonymous: (tenant = first()) => caller(tenant, undefined, language),
    async signIn(who, tenant = first()) {
      tokens.set(key(who, tenant), await signInAs(ready(), tenant, who));
      return caller(tenant, tokens.get(key(who, tenant)), language);
    },
    async orgOf(who, tenant = first()) {
      const user = await userRow(who, tenant);
      if (!user.organisationId) throw new Error(`${who} belongs to no organisation`);
      return user.organisationId;
    },
    async userOf(who, tenant = first()) {
      return (await userRow(who, tenant)).id;
    },
  };
}
