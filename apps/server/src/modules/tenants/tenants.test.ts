import { spawnSync } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { call, lastMailTo, signIn, signInAs, type TestTenant } from '../../../test/helpers.ts';
import { scratchDir } from '../../../test/server-process.ts';
import { sessions } from '../../db/schema.ts';
import { DEMO_PASSWORD, seedTenant } from '../../db/seed.ts';
import { AppError } from '../../lib/errors.ts';
import { CommandError, runTenantCommand } from '../../tenant-cli.ts';
import { findUserByEmail } from '../auth/service.ts';
import { roleIdsByCode } from '../roles/service.ts';
import { DEFAULT_TENANT_CODE } from '../site/service.ts';
import { findTenantByCodeForPlatform } from './service.ts';

const f = useTestApp({ signIn: ['admin'] });

/** The platform's own tenant, answering on localhost, with its demo users. */
let platform: TestTenant | undefined;
async function platformTenant(): Promise<TestTenant> {
  if (platform) return platform;
  const { tenant, roleIds } = await seedTenant(f.db, {
    code: DEFAULT_TENANT_CODE,
    name: '平台',
    emailDomain: 'platform.example.com',
  });
  platform = {
    tenant,
    roleIds,
    host: 'localhost',
    email: (who) => `${who}@platform.example.com`,
    password: DEMO_PASSWORD,
  };
  return platform;
}

/** Runs `npm run tenant -- ...` in this process against the test database; answers what it printed. */
async function tenantCommand(...args: string[]): Promise<string> {
  const lines: string[] = [];
  await runTenantCommand(args, { db: f.db, mailer: null, print: (l) => lines.push(l), scheme: 'http' });
  return lines.join('\n');
}

/** The set-password token mailed to a new administrator. */
async function welcomeToken(tenantId: number, email: string): Promise<{ link: string; token: string }> {
  const mail = await lastMailTo(f.ctx, tenantId, email);
  const match = /(https?:\/\/\S+\/forgotPassword\?token=([A-Za-z0-9_-]+))/.exec(mail?.text ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`no link in ${mail?.text}`);
  return { link: match[1], token: match[2] };
}

/** A tenant made by the command, its administrator's password set through the mailed link. */
async function commandTenant(code: string, host: string, name: string) {
  const admin = `boss@${host}`;
  const printed = await tenantCommand('create', code, '--host', host, '--admin', admin, '--name', name);
  expect(printed).toContain(`Created tenant ${code}`);
  const record = await findTenantByCodeForPlatform(f.db, code);
  if (!record) throw new Error('not created');
  const { link, token } = await welcomeToken(record.id, admin);
  expect(link.startsWith(`http://${host}/forgotPassword?token=`)).toBe(true);
  const set = await call(
    f.ctx,
    'POST',
    '/api/admin/auth/retrievePassword',
    { token, password: 'New-admin-1', confirmPassword: 'New-admin-1' },
    { host },
  );
  expect(set.json().code).toBe(200);
  const t: TestTenant = {
    tenant: { ...(f.t.tenant as TestTenant['tenant']), id: record.id, code },
    roleIds: new Map(),
    host,
    email: () => admin,
    password: 'New-admin-1',
  };
  return { record, t, admin, token: await signIn(f.ctx, t, admin, 'New-admin-1') };
}

describe('npm run tenant -- create', () => {
  it('creates a tenant whose administrator sets a password from the mail, signs in and sees only its own site', async () => {
    const { record, t, token } = await commandTenant('acme', 'portal.acme-freight.test', 'Acme 货运');
    expect(record).toMatchObject({ code: 'acme', hosts: ['portal.acme-freight.test'], enabled: true });

    // Its own branding on its host; the other tenant's on the other's.
    const mine = await call(f.ctx, 'POST', '/api/admin/auth/getHostConfig', {}, { host: t.host });
    expect(mine.json().data).toMatchObject({ tenant: 'acme', siteName: 'Acme 货运' });
    const theirs = await call(f.ctx, 'POST', '/api/admin/auth/getHostConfig', {}, { host: f.t.host });
    expect(theirs.json().data.tenant).toBe(f.t.tenant.code);

    // Built-in roles and the administrator's menu, without the platform's tenants page.
    const roles = await roleIdsByCode(f.db, record.id, ['admin', 'editor', 'branch', 'agent', 'customer']);
    expect(roles.size).toBe(5);
    const info = await call(f.ctx, 'POST', '/api/admin/role/getUserRole', {}, { host: t.host, token });
    expect(info.json().data.roles).toEqual(['admin']);
    const paths = JSON.stringify(info.json().data.menus);
    expect(paths).toContain('/site-configuration');
    expect(paths).not.toContain('/tenantManagement');
    const list = await call(f.ctx, 'POST', '/api/admin/tenants/list', {}, { host: t.host, token });
    expect(list.json().code).toBe(401);

    // Nothing of the other tenant: its roles are not found, its users cannot sign in here, nor ours there.
    const otherRole = f.t.roleIds.get('admin') as number;
    const foreign = await call(
      f.ctx,
      'POST',
      '/api/admin/role/info',
      { id: otherRole },
      { host: t.host, token },
    );
    expect(foreign.json().code).toBe(404);
    const staff = await call(f.ctx, 'POST', '/api/admin/staff/list', {}, { host: t.host, token });
    expect(staff.json().data.list.map((u: { email: string }) => u.email)).toEqual([
      'boss@portal.acme-freight.test',
    ]);
    await expect(signIn(f.ctx, t, f.t.email('admin'), f.t.password)).rejects.toThrow(/login failed|code/);
    await expect(signIn(f.ctx, f.t, 'boss@portal.acme-freight.test', 'New-admin-1')).rejects.toThrow(
      /login failed|code/,
    );
    const tenantInfo = await call(f.ctx, 'POST', '/api/admin/auth/getInfo', {}, { host: f.t.host, token });
    expect(tenantInfo.json().code).toBe(300);
  });

  it('lists tenants and refuses bad or taken codes and hosts, naming the field, leaving nothing behind', async () => {
    await platformTenant();
    await tenantCommand('create', 'globex', '--host', 'globex.test', '--admin', 'ops@globex.test');
    const listed = await tenantCommand('list');
    expect(listed).toMatch(/globex\tenabled\tglobex\tglobex\.test/);

    const refused = async (...args: string[]) => {
      const error = await tenantCommand(...args).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(Error);
      return error as Error;
    };
    const badCode = await refused('create', 'Bad_Code', '--host', 'x.test', '--admin', 'a@x.test');
    expect(badCode).toBeInstanceOf(CommandError);
    expect(badCode.message).toMatch(/^code: Tenant code takes lower-case letters/);
    expect((await refused('create', 'okcode', '--host', '127.0.0.1', '--admin', 'a@x.test')).message).toMatch(
      /^--host: Hosts must be a domain name/,
    );
    expect((await refused('create', 'okcode', '--host', 'ok.test', '--admin', 'nope')).message).toMatch(
      /^--admin: /,
    );
    expect((await refused('create', 'okcode', '--admin', 'a@x.test')).message).toMatch(/^--host: /);

    const takenCode = await refused('create', 'globex', '--host', 'other.test', '--admin', 'a@other.test');
    expect(takenCode).toBeInstanceOf(AppError);
    expect((takenCode as AppError).fields?.[0]).toMatchObject({ field: 'code', key: 'tenants.codeTaken' });
    // The host check comes after the tenant row is written: the refusal rolls the row back.
    const takenHost = await refused(
      'create',
      'initech',
      '--host',
      'globex.test',
      '--admin',
      'a@initech.test',
    );
    expect((takenHost as AppError).fields?.[0]).toMatchObject({ field: 'hosts', key: 'tenants.hostTaken' });
    expect(await findTenantByCodeForPlatform(f.db, 'initech')).toBeNull();
    // A host that names another tenant by its code is that tenant's already.
    const derived = await refused('create', 'initech', '--host', f.t.host, '--admin', 'a@initech.test');
    expect((derived as AppError).fields?.[0]).toMatchObject({ field: 'hosts', key: 'tenants.hostTaken' });
    expect(await findTenantByCodeForPlatform(f.db, 'initech')).toBeNull();
  });

  it('runs as a command of its own against the embedded database', { timeout: 120_000 }, () => {
    const data = scratchDir('fp-tenant-cli-');
    try {
      const run = (...args: string[]) =>
        spawnSync(
          process.execPath,
          ['--import', 'tsx', new URL('../../tenant-cli.ts', import.meta.url).pathname, ...args],
          {
            env: { ...process.env, DATA_DIR: data.dir, DATABASE_URL: '', SMTP_URL: '' },
            encoding: 'utf8',
            timeout: 110_000,
          },
        );
      const created = run('create', 'hooli', '--host', 'hooli.test', '--admin', 'gavin@hooli.test');
      expect(created.stderr).toBe('');
      expect(created.status).toBe(0);
      expect(created.stdout).toContain('Created tenant hooli');
      expect(created.stdout).toContain('gavin@hooli.test');
      const again = run('create', 'hooli', '--host', 'hooli2.test', '--admin', 'gavin@hooli.test');
      expect(again.status).toBe(1);
      expect(again.stderr).toContain('code: Tenant code hooli is already used by another tenant');
    } finally {
      data.remove();
    }
  });
});

describe('the tenants page', () => {
  it('lets only the default tenant’s administrators list, create, edit and disable tenants', async () => {
    const p = await platformTenant();
    const admin = await signInAs(f.ctx, p, 'admin');
    const editor = await signInAs(f.ctx, p, 'editor');
    const post = (url: string, body: object, token = admin, host = p.host) =>
      call(f.ctx, 'POST', url, body, { host, token, language: 'en-US' });

    const menu = await post('/api/admin/role/getUserRole', {});
    expect(JSON.stringify(menu.json().data.menus)).toContain('/tenantManagement');
    expect((await post('/api/admin/tenants/list', {}, editor)).json().code).toBe(401);
    expect(
      (await post('/api/admin/tenants/list', {}, f.as('admin').token as string, f.t.host)).json().code,
    ).toBe(401);

    const created = await post('/api/admin/tenants/create', {
      code: 'umbrella',
      name: 'Umbrella',
      nameEn: 'Umbrella Corp',
      hosts: ['umbrella.test', 'www.umbrella.test'],
      adminEmail: 'Alice@Umbrella.test',
    });
    expect(created.json()).toMatchObject({ code: 200, data: { code: 'umbrella' } });
    const id = created.json().data.id as number;
    const { link } = await welcomeToken(id, 'alice@umbrella.test');
    expect(link.startsWith('http://umbrella.test/forgotPassword?token=')).toBe(true);
    const mail = await lastMailTo(f.ctx, id, 'alice@umbrella.test');
    expect(mail?.subject).toBe('Umbrella Corp: your administrator account');

    const bad = await post('/api/admin/tenants/create', {
      code: 'x',
      name: 'X',
      hosts: ['localhost'],
      adminEmail: 'a@x.test',
    });
    expect(bad.json().data.fields.map((f: { field: string }) => f.field)).toEqual(['code', 'hosts.0']);
    expect(bad.json().data.fields[0].message).toMatch(/^Tenant code takes/);

    const found = await post('/api/admin/tenants/list', { keyword: 'umbrella', page: 1, limit: 10 });
    expect(found.json().data).toMatchObject({
      total: 1,
      list: [
        { code: 'umbrella', hosts: ['umbrella.test', 'www.umbrella.test'], enabled: true, isDefault: false },
      ],
    });

    const saved = await post('/api/admin/tenants/save', {
      id,
      name: 'Umbrella Ltd',
      hosts: ['umbrella.example'],
    });
    expect(saved.json().code).toBe(200);
    const edited = await post('/api/admin/tenants/list', { keyword: 'umbrella.example' });
    expect(edited.json().data.list[0]).toMatchObject({ name: 'Umbrella Ltd', hosts: ['umbrella.example'] });
    const onNewHost = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/getHostConfig',
      {},
      { host: 'umbrella.example' },
    );
    expect(onNewHost.json().data.tenant).toBe('umbrella');
    const onOldHost = await call(
      f.ctx,
      'POST',
      '/api/admin/auth/getHostConfig',
      {},
      { host: 'www.umbrella.test' },
    );
    expect(onOldHost.json().data.tenant).toBe(DEFAULT_TENANT_CODE);

    const lockDefault = await post('/api/admin/tenants/setStatus', { id: p.tenant.id, enabled: false });
    expect(lockDefault.json()).toMatchObject({
      code: 409,
      msg: 'The platform’s default tenant cannot be disabled',
    });
  });

  it('disabling a tenant ends its sessions at once and its hosts say the site is disabled', async () => {
    const p = await platformTenant();
    const admin = await signInAs(f.ctx, p, 'admin');
    const { record, t, token } = await commandTenant('wayne', 'wayne.test', 'Wayne');
    const getInfo = () =>
      call(f.ctx, 'POST', '/api/admin/auth/getInfo', {}, { host: t.host, token, language: 'en-US' });
    expect((await getInfo()).json().code).toBe(200);

    const off = await call(
      f.ctx,
      'POST',
      '/api/admin/tenants/setStatus',
      { id: record.id, enabled: false },
      { host: p.host, token: admin },
    );
    expect(off.json().code).toBe(200);
    expect((await getInfo()).json()).toMatchObject({
      code: 300,
      msg: 'This site has been disabled; please contact the platform operator',
    });
    const live = await f.db.select().from(sessions).where(eq(sessions.tenantId, record.id));
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((s) => s.revokedAt !== null)).toBe(true);
    const branding = await call(f.ctx, 'POST', '/api/admin/auth/getHostConfig', {}, { host: t.host });
    expect(branding.statusCode).toBe(401);
    const page = await f.ctx.app.inject({
      method: 'GET',
      url: '/home',
      headers: { host: t.host, 'accept-language': 'en-US' },
    });
    expect(page.statusCode).toBe(403);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('Site disabled');
    const listed = await call(
      f.ctx,
      'POST',
      '/api/admin/tenants/list',
      { enabled: false },
      { host: p.host, token: admin },
    );
    expect(listed.json().data.list.map((r: { code: string }) => r.code)).toEqual(['wayne']);

    // Enabled again, the site answers, but the sessions it had stay ended.
    await tenantCommand('enable', 'wayne');
    // The command runs outside the server: on PostgreSQL its change reaches the server's tenant cache
    // by notification, a moment after the command returns.
    await expect
      .poll(
        async () =>
          (await call(f.ctx, 'POST', '/api/admin/auth/getHostConfig', {}, { host: t.host })).json().data
            ?.tenant,
        { timeout: 5000 },
      )
      .toBe('wayne');
    expect((await getInfo()).json().code).toBe(300);
    expect(await findUserByEmail(f.db, record.id, 'boss@wayne.test')).not.toBeNull();
    expect(await tenantCommand('disable', 'wayne')).toBe('Disabled tenant wayne; 0 session(s) ended.');
  });
});
