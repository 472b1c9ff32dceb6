import { beforeAll, describe, expect, it } from 'vitest';
import { type Caller, useTestApp } from '../../../test/fixture.ts';
import { addUser, badFields, fieldMessage, signIn } from '../../../test/helpers.ts';
import { createOrganisation } from '../customers/service.ts';
import { createNotice, NoticeType } from './service.ts';

const f = useTestApp({
  tenants: 2,
  signIn: [
    ['admin', 'editor', 'branch', 'agent', 'customer', 'direct'],
    ['admin', 'customer'],
  ],
  language: 'en-US',
});

interface Notice {
  id: number;
  type: number;
  title: string;
  content: string;
  pop_theme: string;
  order_type: number;
  order_sn: string;
}

const unreadTitles = async (who: Caller) =>
  ((await who.ok('/api/admin/notice/userNotices', { type: 0 })).list as Notice[]).map((n) => n.title);

let seq = 0;
/** A published announcement by the first tenant's administrator; answers its id. */
async function publish(fields: Record<string, unknown>, by: Caller = f.as('admin')) {
  const saved = await by.ok('/api/admin/notice/announcementSave', {
    title: `Announcement ${++seq}`,
    content: '<p>Hello</p>',
    type: 2,
    audience: 'all',
    ...fields,
  });
  await by.ok('/api/admin/notice/announcementPublish', { id: saved.id });
  return saved.id as number;
}

// A second agent under the same branch, with one customer user: outside the first agent's subtree.
let otherCustomer: Caller;
let agentB: number;

beforeAll(async () => {
  const branch = await f.orgOf('branch');
  const agent = await createOrganisation(f.db, f.t.tenant.id, {
    type: 'agent',
    name: 'Second Agency',
    parentId: branch,
  });
  agentB = agent.id;
  const email = `cb@${f.t.tenant.code}.example.com`;
  await createOrganisation(f.db, f.t.tenant.id, {
    type: 'customer',
    name: 'Customer of B',
    parentId: agent.id,
    firstUser: { email, password: f.t.password, name: 'Customer B' },
  });
  otherCustomer = f.withToken(await signIn(f.ctx, f.t, email));
});

describe('who an announcement reaches', () => {
  it("reaches an agent's whole subtree, and nobody outside it or in another tenant", async () => {
    const title = 'Harbor subtree';
    const id = await publish({ title, audience: 'organisation', organisationId: await f.orgOf('agent') });
    const popped = ((await f.as('customer').ok('/api/admin/notice/userNotices', {})).list as Notice[]).find(
      (n) => n.title === title,
    );
    // Shaped as SPEC section 3's Notice; its id is negative so it never meets a system notice's.
    expect(popped).toEqual({
      id: -id,
      type: 2,
      title,
      content: '<p>Hello</p>',
      pop_theme: 'info',
      order_type: 0,
      order_sn: '',
    });
    expect(await unreadTitles(f.as('agent'))).toContain(title);
    for (const outside of [f.as('branch'), f.as('direct'), f.as('admin'), otherCustomer])
      expect(await unreadTitles(outside)).not.toContain(title);
    expect(await unreadTitles(f.as('customer', f.tenant(1)))).not.toContain(title);
  });

  it('reaches only the organisation itself without its subtree', async () => {
    const title = 'Agent B only';
    await publish({ title, audience: 'organisation', organisationId: agentB, includeSubtree: false });
    expect(await unreadTitles(otherCustomer)).not.toContain(title);
    expect(await unreadTitles(f.as('agent'))).not.toContain(title);
    // The agent's own users would see it: agent B has none, so the readers count is 0.
    const withSubtree = await publish({
      title: 'Agent B tree',
      audience: 'organisation',
      organisationId: agentB,
    });
    expect(await unreadTitles(otherCustomer)).toContain('Agent B tree');
    const readers = await f.as('admin').ok('/api/admin/notice/announcementReaders', { id: withSubtree });
    expect(readers.targetCount).toBe(1);
  });

  it('reaches users of the chosen identities', async () => {
    const title = 'Customers only';
    await publish({ title, audience: 'identity', identities: ['customer'] });
    expect(await unreadTitles(f.as('customer'))).toContain(title);
    expect(await unreadTitles(f.as('direct'))).toContain(title);
    expect(await unreadTitles(otherCustomer)).toContain(title);
    expect(await unreadTitles(f.as('agent'))).not.toContain(title);
    expect(await unreadTitles(f.as('editor'))).not.toContain(title);
    await publish({ title: 'Staff only', audience: 'identity', identities: ['employee'] });
    expect(await unreadTitles(f.as('editor'))).toContain('Staff only');
    expect(await unreadTitles(f.as('customer'))).not.toContain('Staff only');
  });

  it('pops up only inside its window, and not as a draft or once withdrawn', async () => {
    const hour = 3_600_000;
    const later = await publish({
      title: 'Later',
      startsAt: new Date(Date.now() + hour).toISOString(),
      audience: 'identity',
      identities: ['customer'],
    });
    await publish({
      title: 'Over',
      endsAt: new Date(Date.now() - hour).toISOString(),
      startsAt: '2020-01-01',
    });
    const draft = await f.as('admin').ok('/api/admin/notice/announcementSave', {
      title: 'Draft',
      content: '<p>x</p>',
      type: 1,
      audience: 'all',
    });
    let titles = await unreadTitles(f.as('customer'));
    expect(titles).not.toContain('Later');
    expect(titles).not.toContain('Over');
    expect(titles).not.toContain('Draft');
    // Its window opened: the same announcement, edited, shows.
    await f.as('admin').ok('/api/admin/notice/announcementSave', {
      id: later,
      title: 'Later',
      content: '<p>Now</p>',
      type: 2,
      audience: 'identity',
      identities: ['customer'],
      startsAt: new Date(Date.now() - hour).toISOString(),
    });
    expect(await unreadTitles(f.as('customer'))).toContain('Later');
    await f.as('admin').ok('/api/admin/notice/announcementWithdraw', { id: later });
    titles = await unreadTitles(f.as('customer'));
    expect(titles).not.toContain('Later');
    // A withdrawn announcement cannot be read either.
    expect((await f.as('customer').fail('/api/admin/notice/read', { id: -later }, 404)).code).toBe(404);
    await f.as('admin').ok('/api/admin/notice/announcementPublish', { id: draft.id });
    expect(await unreadTitles(f.as('customer'))).toContain('Draft');
  });
});

describe('reading', () => {
  it('gives every user the notice list page, with no role restriction', async () => {
    for (const who of [f.as('customer'), f.as('agent'), f.as('editor')]) {
      const menu = await who.ok('/api/menu/navigate', {});
      const notices = menu.find((n: { paths: string }) => n.paths === '/notification');
      expect(notices).toMatchObject({ component: 'NoticeList', meta: { permissions: [] } });
    }
  });

  it('marks an announcement read for that user only, and shows who read it', async () => {
    const title = 'Read me';
    const id = await publish({ title, type: 1, popTheme: 'warning' });
    const popped = ((await f.as('customer').ok('/api/admin/notice/userNotices', {})).list as Notice[]).find(
      (n) => n.title === title,
    );
    expect(popped?.pop_theme).toBe('warning');
    await f.as('customer').ok('/api/admin/notice/read', { id: -id });
    await f.as('customer').ok('/api/admin/notice/read', { id: -id });
    expect(await unreadTitles(f.as('customer'))).not.toContain(title);
    expect(await unreadTitles(f.as('direct'))).toContain(title);

    const readers = await f.as('admin').ok('/api/admin/notice/announcementReaders', { id });
    expect(readers.readCount).toBe(1);
    expect(readers.list).toEqual([
      expect.objectContaining({ email: f.t.email('customer'), userId: await f.userOf('customer') }),
    ]);
    // Everyone of the tenant: 6 demo users and the customer of agent B.
    expect(readers.targetCount).toBe(7);
    const listed = await f.as('admin').ok('/api/admin/notice/announcementList', { keyword: title });
    expect(listed.list).toEqual([expect.objectContaining({ id, readCount: 1, status: 'published' })]);
  });

  it("lists a user's notices of both kinds, read and unread, searchable", async () => {
    const customer = f.as('customer');
    await createNotice(f.db, {
      tenantId: f.t.tenant.id,
      userId: await f.userOf('customer'),
      type: NoticeType.Toast,
      title: 'Recharge approved',
      content: 'Your <b>recharge</b> of 100.00 was credited',
      orderType: 3,
      orderSn: 'R1',
    });
    const id = await publish({ title: 'Holiday hours', content: '<p>Closed on the <i>first</i></p>' });
    const all = await customer.ok('/api/admin/notice/list', { keyword: 'recharge' });
    expect(all.list).toEqual([
      expect.objectContaining({ kind: 'system', title: 'Recharge approved', order_type: 3, readAt: null }),
    ]);
    const found = await customer.ok('/api/admin/notice/list', { keyword: 'closed' });
    expect(found.list).toEqual([expect.objectContaining({ id: -id, kind: 'announcement', readAt: null })]);
    await customer.ok('/api/admin/notice/read', { id: -id });
    const read = await customer.ok('/api/admin/notice/list', { read: 'read', limit: 100 });
    expect(read.list.map((n: Notice) => n.title)).toContain('Holiday hours');
    expect(read.list.map((n: Notice) => n.title)).not.toContain('Recharge approved');
    const unread = await customer.ok('/api/admin/notice/list', { read: 'unread', limit: 100 });
    expect(unread.list.map((n: Notice) => n.title)).toContain('Recharge approved');
    // Paged, newest first, with the total of both kinds.
    const page = await customer.ok('/api/admin/notice/list', { limit: 10 });
    expect(page.total).toBe(read.total + unread.total);
    expect(page.list[0].title).toBe('Holiday hours');
    const agentList = await f.as('agent').ok('/api/admin/notice/list', { keyword: 'recharge' });
    expect(agentList.list).toEqual([]);
  });

  it("refuses to mark another user's notice or an announcement not aimed at the reader", async () => {
    const id = await publish({ title: 'Agents', audience: 'identity', identities: ['agent'] });
    await f.as('customer').fail('/api/admin/notice/read', { id: -id }, 404);
    await f.as('customer', f.tenant(1)).fail('/api/admin/notice/read', { id: -id }, 404);
    await f.as('customer').fail('/api/admin/notice/read', { id: 0 }, 400);
  });
});

describe('managing announcements', () => {
  it('sanitises the HTML on save', async () => {
    const saved = await f.as('admin').ok('/api/admin/notice/announcementSave', {
      title: 'Unsafe',
      content:
        '<p style="text-align:center" onclick="x()">ok <a href="javascript:alert(1)">x</a></p><script>alert(1)</script><img src=x onerror=alert(1)><img src="https://cdn.example.com/a.png">',
      type: 2,
      audience: 'all',
    });
    expect(saved.content).toBe(
      '<p style="text-align:center">ok <a rel="noopener noreferrer">x</a></p><img src="x" /><img src="https://cdn.example.com/a.png" />',
    );
    const empty = await f.as('admin').post('/api/admin/notice/announcementSave', {
      title: 'Only a script',
      content: '<script>alert(1)</script>',
      type: 2,
      audience: 'all',
    });
    expect(badFields(empty)).toEqual(['content']);
    expect(fieldMessage(empty, 'content')).toBe('Content cannot be empty (unsafe content was removed)');
  });

  it('names each bad field in both languages', async () => {
    const bad = { title: '', content: '<p>x</p>', type: 3, audience: 'all' };
    const en = await f.as('admin').post('/api/admin/notice/announcementSave', bad, 'en-US');
    expect(en.json().code).toBe(400);
    expect(badFields(en).sort()).toEqual(['title', 'type']);
    expect(fieldMessage(en, 'title')).toMatch(/^Title/);
    const zh = await f.as('admin').post('/api/admin/notice/announcementSave', bad, 'zh-CN');
    expect(fieldMessage(zh, 'title')).toMatch(/^标题/);
    expect(fieldMessage(zh, 'type')).toMatch(/^弹出方式/);
    // Rules between fields: an organisation to aim at, a window that ends after it starts.
    const rules = {
      title: 'x',
      content: '<p>x</p>',
      type: 2,
      audience: 'organisation',
      startsAt: '2026-02-01',
      endsAt: '2026-01-01',
    };
    const enRules = await f.as('admin').post('/api/admin/notice/announcementSave', rules, 'en-US');
    expect(badFields(enRules).sort()).toEqual(['endsAt', 'organisationId']);
    expect(fieldMessage(enRules, 'organisationId')).toMatch(/^Organisation/);
    expect(fieldMessage(enRules, 'endsAt')).toBe('Ends at must be later than the start');
    const zhRules = await f.as('admin').post('/api/admin/notice/announcementSave', rules, 'zh-CN');
    expect(fieldMessage(zhRules, 'organisationId')).toMatch(/^接收机构/);
    expect(fieldMessage(zhRules, 'endsAt')).toBe('结束时间必须晚于开始时间');
    // An organisation of another tenant does not exist here.
    const foreign = await f.as('admin').post('/api/admin/notice/announcementSave', {
      title: 'x',
      content: '<p>x</p>',
      type: 2,
      audience: 'organisation',
      organisationId: await f.orgOf('customer', f.tenant(1)),
    });
    expect(badFields(foreign)).toEqual(['organisationId']);
    expect(fieldMessage(foreign, 'organisationId')).toBe('Organisation does not exist');
  });

  it('lists them paged, by title, status, type and day', async () => {
    const admin = f.as('admin', f.tenant(1));
    for (const [title, type] of [
      ['Alpha', 1],
      ['Beta', 2],
      ['Gamma', 2],
    ] as const)
      await admin.ok('/api/admin/notice/announcementSave', {
        title,
        content: '<p>x</p>',
        type,
        audience: 'all',
      });
    const all = await admin.ok('/api/admin/notice/announcementList', { limit: 10 });
    expect(all.total).toBe(3);
    const page2 = await admin.ok('/api/admin/notice/announcementList', { page: 2, limit: 10 });
    expect(page2.list).toEqual([]);
    expect((await admin.ok('/api/admin/notice/announcementList', { type: 2 })).total).toBe(2);
    expect((await admin.ok('/api/admin/notice/announcementList', { keyword: 'amm' })).list[0].title).toBe(
      'Gamma',
    );
    const beta = (await admin.ok('/api/admin/notice/announcementList', { keyword: 'Beta' })).list[0];
    await admin.ok('/api/admin/notice/announcementPublish', { id: beta.id });
    const published = await admin.ok('/api/admin/notice/announcementList', { status: 'published' });
    expect(published.list.map((a: { title: string }) => a.title)).toEqual(['Beta']);
    expect(published.list[0].createdBy).not.toBe('');
    const today = new Date().toISOString().slice(0, 10);
    expect((await admin.ok('/api/admin/notice/announcementList', { from: today, to: today })).total).toBe(3);
    expect((await admin.ok('/api/admin/notice/announcementList', { to: '2020-01-01' })).total).toBe(0);
  });

  it('deletes only drafts and withdrawn announcements', async () => {
    const id = await publish({ title: 'To delete' });
    const refused = await f.as('admin').fail('/api/admin/notice/announcementDelete', { id }, 409);
    expect(refused.msg).toBe('Only a draft or a withdrawn announcement can be deleted; withdraw it first');
    await f.as('admin').ok('/api/admin/notice/announcementWithdraw', { id });
    await f.as('admin').ok('/api/admin/notice/announcementDelete', { id });
    await f.as('admin').fail('/api/admin/notice/announcementReaders', { id }, 404);
  });

  it('keeps them to staff holding the page, within their tenant', async () => {
    const id = await publish({ title: 'Guarded' });
    for (const who of [f.as('customer'), f.as('agent')]) {
      await who.fail('/api/admin/notice/announcementList', {}, 401);
      await who.fail(
        '/api/admin/notice/announcementSave',
        { title: 'x', content: 'x', type: 2, audience: 'all' },
        401,
      );
      await who.fail('/api/admin/notice/announcementPublish', { id }, 401);
      await who.fail('/api/admin/notice/announcementWithdraw', { id }, 401);
      await who.fail('/api/admin/notice/announcementDelete', { id }, 401);
      await who.fail('/api/admin/notice/announcementReaders', { id }, 401);
      await who.fail('/api/admin/notice/organisations', {}, 401);
    }
    // A customer account given the administrator's role is still not staff.
    const granted = await addUser(f.ctx, f.t, { identity: 'customer', role: 'admin' });
    const customerAdmin = f.withToken(await signIn(f.ctx, f.t, granted.email));
    await customerAdmin.fail('/api/admin/notice/announcementList', {}, 401);
    // Another tenant's staff never find it.
    const other = f.as('admin', f.tenant(1));
    for (const call of [
      'announcementPublish',
      'announcementWithdraw',
      'announcementDelete',
      'announcementReaders',
    ])
      await other.fail(`/api/admin/notice/${call}`, { id }, 404);
    await other.fail(
      '/api/admin/notice/announcementSave',
      { id, title: 'x', content: '<p>x</p>', type: 2, audience: 'all' },
      404,
    );
    expect(await unreadTitles(f.as('customer'))).toContain('Guarded');
    // The editor runs the page too.
    expect((await f.as('editor').ok('/api/admin/notice/announcementReaders', { id })).readCount).toBe(0);
  });

  it('offers the organisations of the tenant to aim at', async () => {
    const found = await f.as('admin').ok('/api/admin/notice/organisations', { keyword: 'harbor' });
    expect(found.list).toEqual([
      { id: await f.orgOf('agent'), name: 'Harbor Freight Agency', type: 'agent' },
    ]);
    const other = await f
      .as('admin', f.tenant(1))
      .ok('/api/admin/notice/organisations', { keyword: 'Second' });
    expect(other.list).toEqual([]);
  });
});
