import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createTenant,
  createTestApp,
  signInAs,
  type TestContext,
  type TestTenant,
  userIdOf,
} from '../../../test/helpers.ts';
import { createNotice, NoticeOrderType, NoticeType } from './service.ts';

let ctx: TestContext;
let t: TestTenant;
let other: TestTenant;
const tokens: Record<string, string> = {};

const post = (url: string, body: unknown, who: string, tenant = t) =>
  call(ctx, 'POST', url, body, { host: tenant.host, token: tokens[who], language: 'en-US' });
const unread = async (who: string, tenant = t) =>
  (await post('/api/admin/notice/userNotices', { type: 0 }, who, tenant)).json().data.list as {
    id: number;
    title: string;
    content: string;
  }[];

async function noticeFor(tenant: TestTenant, who: 'customer' | 'agent', title: string, content = 'text') {
  await createNotice(ctx.database.db, {
    tenantId: tenant.tenant.id,
    userId: await userIdOf(ctx, tenant.tenant.id, tenant.email(who)),
    type: NoticeType.Toast,
    title,
    content,
    orderType: NoticeOrderType.AccountDetail,
    orderSn: 'R20260101-000001',
  });
}

beforeAll(async () => {
  ctx = await createTestApp();
  t = await createTenant(ctx);
  other = await createTenant(ctx);
  tokens.customer = await signInAs(ctx, t, 'customer');
  tokens.agent = await signInAs(ctx, t, 'agent');
  tokens.otherCustomer = await signInAs(ctx, other, 'customer');
});
afterAll(() => ctx.close());

describe('user notices', () => {
  it('shows a user its unread notices, oldest first, until each is read', async () => {
    await noticeFor(t, 'customer', 'first');
    await noticeFor(t, 'customer', 'second');
    const list = await unread('customer');
    expect(list.map((n) => n.title)).toEqual(['first', 'second']);
    // Fetching again shows them again: only reading marks them.
    expect((await unread('customer')).map((n) => n.title)).toEqual(['first', 'second']);
    const read = await post('/api/admin/notice/read', { id: list[0]?.id }, 'customer');
    expect(read.json().code).toBe(200);
    expect((await unread('customer')).map((n) => n.title)).toEqual(['second']);
    // Reading twice is harmless.
    expect((await post('/api/admin/notice/read', { id: list[0]?.id }, 'customer')).json().code).toBe(200);
  });

  it("keeps each user's notices to that user, within its tenant", async () => {
    await noticeFor(t, 'agent', 'for the agent');
    await noticeFor(other, 'customer', 'other tenant');
    const agentNotice = (await unread('agent')).find((n) => n.title === 'for the agent');
    expect(agentNotice).toBeDefined();
    expect((await unread('customer')).map((n) => n.title)).not.toContain('for the agent');
    expect((await unread('customer')).map((n) => n.title)).not.toContain('other tenant');
    expect((await post('/api/admin/notice/read', { id: agentNotice?.id }, 'customer')).json().code).toBe(404);
    expect(
      (await post('/api/admin/notice/read', { id: agentNotice?.id }, 'otherCustomer', other)).json().code,
    ).toBe(404);
    expect((await unread('agent')).map((n) => n.title)).toContain('for the agent');
  });

  it('stores notice HTML sanitised', async () => {
    await noticeFor(t, 'customer', 'html', '<b>ok</b><script>alert(1)</script><img src=x onerror=alert(1)>');
    const html = (await unread('customer')).find((n) => n.title === 'html');
    expect(html?.content).toBe('<b>ok</b>');
  });

  it('needs a session', async () => {
    const res = await call(ctx, 'POST', '/api/admin/notice/userNotices', { type: 0 }, { host: t.host });
    expect(res.json().code).toBe(300);
  });
});
