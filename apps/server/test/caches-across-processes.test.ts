import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CACHE_LISTENER_NAME } from '../src/db/cache-events.ts';
import { tenants } from '../src/db/schema.ts';
import { useTestApp } from './fixture.ts';
import { addUser, allowNewCode, signIn } from './helpers.ts';
import { useSecondCopy } from './second-copy.ts';

/**
 * Two copies of the server on one database. The second is built from a fresh load of the server's
 * modules, as a second process would be, so no cache in memory is shared: it hears of the first's
 * changes only through the database. The caches keep entries for 5 seconds; every change must show
 * in the other copy well before. Each test first has the other copy cache what the change then
 * revokes, so a pass proves the cache was dropped, not that it was never filled.
 */
const f = useTestApp({ signIn: ['admin'] });
const other = useSecondCopy(f);
const SOON_MS = 1_500;

/** POSTs to the second copy. */
function toOther(url: string, body: unknown, token?: string) {
  return other.app.inject({
    method: 'POST',
    url,
    headers: { host: f.t.host, ...(token ? { accesstoken: token } : {}) },
    payload: body as object,
  });
}

/** Asks until `check` holds; answers how long that took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`not seen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - start;
}

const siteNameSeenByOther = async () =>
  (await toOther('/api/admin/auth/getHostConfig', {})).json().data.siteName as string;

describe('caches across processes', () => {
  it("shows a tenant's branding saved through one copy in the other at once", async () => {
    const before = await siteNameSeenByOther();
    // The other copy does cache: a change written behind the servers' backs is not seen yet.
    const [row] = await f.db.select().from(tenants).where(eq(tenants.id, f.t.tenant.id));
    await f.db
      .update(tenants)
      .set({ branding: { ...row?.branding, siteName: 'Unannounced' } as NonNullable<typeof row>['branding'] })
      .where(eq(tenants.id, f.t.tenant.id));
    expect(await siteNameSeenByOther()).toBe(before);

    const info = await f.as('admin').ok('/api/admin/site/info');
    await f.as('admin').ok('/api/admin/site/save', { ...info, siteName: 'Announced' });
    const took = await within(SOON_MS, async () => (await siteNameSeenByOther()) === 'Announced');
    expect(took).toBeLessThan(SOON_MS);
  });

  it('hears changes again after the listening connections are cut, as a database restart would', async () => {
    // PGlite is embedded in the process: it has no connection to lose.
    if (f.ctx.database.kind === 'postgres') {
      const listeners = async () => {
        const result = (await f.db.execute(sql`
          select pid from pg_stat_activity
           where datname = current_database() and application_name = ${CACHE_LISTENER_NAME}`)) as unknown as {
          rows: { pid: number }[];
        };
        return result.rows.map((r) => r.pid);
      };
      const cut = await listeners();
      expect(cut).toHaveLength(2);
      await f.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = ${CACHE_LISTENER_NAME}`);
      await within(5_000, async () => {
        const now = await listeners();
        return now.length === 2 && now.every((pid) => !cut.includes(pid));
      });
    }
    await siteNameSeenByOther();
    const info = await f.as('admin').ok('/api/admin/site/info');
    await f.as('admin').ok('/api/admin/site/save', { ...info, siteName: 'Heard again' });
    await within(SOON_MS, async () => (await siteNameSeenByOther()) === 'Heard again');
  });

  it("lets a user through the other copy as soon as one copy grants the user's role a page", async () => {
    const admin = f.as('admin');
    const roleId = (
      await admin.ok('/api/admin/role/save', {
        name: 'Probe',
        nameEn: 'Probe',
        menuIds: [20],
        buttonKeys: [],
      })
    ).id as number;
    const user = await addUser(f.ctx, f.t);
    await admin.ok('/api/admin/staff/save', {
      id: user.id,
      email: user.email,
      name: 'Probe',
      roleIds: [roleId],
    });
    const token = await signIn(f.ctx, f.t, user.email);
    // Refused, and the refusal's grants now sit in the other copy's cache.
    expect((await toOther('/api/admin/site/info', {}, token)).json().code).toBe(401);

    await admin.ok('/api/admin/role/save', {
      id: roleId,
      name: 'Probe',
      nameEn: 'Probe',
      menuIds: [20, 100],
      buttonKeys: [],
    });
    const took = await within(
      SOON_MS,
      async () => (await toOther('/api/admin/site/info', {}, token)).json().code === 200,
    );
    expect(took).toBeLessThan(SOON_MS);

    // And taken away again the same way.
    await admin.ok('/api/admin/role/save', {
      id: roleId,
      name: 'Probe',
      nameEn: 'Probe',
      menuIds: [20],
      buttonKeys: [],
    });
    await within(SOON_MS, async () => (await toOther('/api/admin/site/info', {}, token)).json().code === 401);
  });

  /** Who the other copy says the token belongs to: the user info's code (200, or 300 when refused). */
  const infoCodeAtOther = async (token: string) =>
    (await toOther('/api/admin/auth/getInfo', {}, token)).json().code as number;

  /** A user with a live session, already cached by the other copy. */
  async function cachedSession(role = 'editor') {
    const user = await addUser(f.ctx, f.t, { role });
    const token = await signIn(f.ctx, f.t, user.email);
    expect(await infoCodeAtOther(token)).toBe(200);
    expect(await infoCodeAtOther(token)).toBe(200);
    return { ...user, token };
  }

  it('refuses a signed-out session in the other copy as soon as the sign-out answers', async () => {
    const { token } = await cachedSession();
    const out = await f.ctx.app.inject({
      method: 'POST',
      url: '/api/logout',
      headers: { host: f.t.host, accesstoken: token },
    });
    expect(out.json().code).toBe(200);
    expect(await within(SOON_MS, async () => (await infoCodeAtOther(token)) === 300)).toBeLessThan(SOON_MS);
    // And it stays refused: no read from before the sign-out comes back.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await infoCodeAtOther(token)).toBe(300);
  });

  it("refuses a user's other sessions in the other copy once the password is changed", async () => {
    const { email, token: kept } = await cachedSession();
    await allowNewCode(f.ctx, f.t.tenant.id, email);
    const other = await signIn(f.ctx, f.t, email);
    expect(await infoCodeAtOther(other)).toBe(200);
    const changed = await f.ctx.app.inject({
      method: 'POST',
      url: '/api/admin/admin/changePassword',
      headers: { host: f.t.host, accesstoken: kept },
      payload: { oldPassword: f.t.password, password: 'New-secret-1', confirmPassword: 'New-secret-1' },
    });
    expect(changed.json().code).toBe(200);
    await within(SOON_MS, async () => (await infoCodeAtOther(other)) === 300);
    // The session that changed it goes on.
    expect(await infoCodeAtOther(kept)).toBe(200);
  });

  it('refuses a disabled user in the other copy, and lets nobody back in by the old token', async () => {
    const { id, token } = await cachedSession();
    await f.as('admin').ok('/api/admin/staff/setStatus', { id, enabled: false });
    await within(SOON_MS, async () => (await infoCodeAtOther(token)) === 300);
    await f.as('admin').ok('/api/admin/staff/setStatus', { id, enabled: true });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await infoCodeAtOther(token)).toBe(300);
  });

  it("shows the other copy's menu without a page as soon as the user's role loses it", async () => {
    const admin = f.as('admin');
    const save = (menuIds: number[]) =>
      admin.ok('/api/admin/role/save', {
        ...(roleId ? { id: roleId } : {}),
        name: 'Menu probe',
        nameEn: 'Menu probe',
        menuIds,
        buttonKeys: [],
      });
    let roleId = 0;
    roleId = (await save([20, 100])).id as number;
    const user = await addUser(f.ctx, f.t);
    await admin.ok('/api/admin/staff/save', {
      id: user.id,
      email: user.email,
      name: 'Menu probe',
      roleIds: [roleId],
    });
    const token = await signIn(f.ctx, f.t, user.email);
    const pagesAtOther = async () => {
      const menu = (await toOther('/api/menu/navigate', {}, token)).json().data as {
        id: number;
        subList: unknown;
      }[];
      const ids: number[] = [];
      const walk = (nodes: { id: number; subList: unknown }[]) => {
        for (const node of nodes) {
          ids.push(node.id);
          if (
            Array.isArray(node.subList) &&
            node.subList.every((n) => typeof n === 'object' && n && 'id' in n)
          )
            walk(node.subList as { id: number; subList: unknown }[]);
        }
      };
      walk(menu);
      return ids;
    };
    expect(await pagesAtOther()).toContain(100);
    expect(await pagesAtOther()).toContain(100);
    await save([20]);
    await within(SOON_MS, async () => !(await pagesAtOther()).includes(100));
    // The grant it guarded goes with it.
    expect((await toOther('/api/admin/site/info', {}, token)).json().code).toBe(401);
  });
});
