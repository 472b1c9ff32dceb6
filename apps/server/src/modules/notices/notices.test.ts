import { translate } from '@freight/contracts/messages';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { type TestTenant, userIdOf } from '../../../test/helpers.ts';
import { createNotice, NoticeOrderType, NoticeType, noticeUser } from './service.ts';

const f = useTestApp({ tenants: 2, signIn: ['customer', 'agent'], language: 'en-US' });

const unread = async (who: 'customer' | 'agent', tenant = f.t) =>
  (await f.as(who, tenant).post('/api/admin/notice/userNotices', { type: 0 })).json().data.list as {
    id: number;
    title: string;
    content: string;
  }[];

async function noticeFor(tenant: TestTenant, who: 'customer' | 'agent', title: string, content = 'text') {
  await createNotice(f.db, {
    tenantId: tenant.tenant.id,
    userId: await userIdOf(f.ctx, tenant.tenant.id, tenant.email(who)),
    type: NoticeType.Toast,
    title,
    content,
    orderType: NoticeOrderType.AccountDetail,
    orderSn: 'R20260101-000001',
  });
}

describe('user notices', () => {
  it('shows a user its unread notices, oldest first, until each is read', async () => {
    // Start from none unread, whatever other tests left.
    for (const n of await unread('customer'))
      await f.as('customer').ok('/api/admin/notice/read', { id: n.id });
    await noticeFor(f.t, 'customer', 'first');
    await noticeFor(f.t, 'customer', 'second');
    const list = await unread('customer');
    expect(list.map((n) => n.title)).toEqual(['first', 'second']);
    // Fetching again shows them again: only reading marks them.
    expect((await unread('customer')).map((n) => n.title)).toEqual(['first', 'second']);
    const read = await f.as('customer').post('/api/admin/notice/read', { id: list[0]?.id });
    expect(read.json().code).toBe(200);
    expect((await unread('customer')).map((n) => n.title)).toEqual(['second']);
    // Reading twice is harmless.
    expect((await f.as('customer').post('/api/admin/notice/read', { id: list[0]?.id })).json().code).toBe(
      200,
    );
  });

  it("keeps each user's notices to that user, within its tenant", async () => {
    await noticeFor(f.t, 'agent', 'for the agent');
    await noticeFor(f.tenant(1), 'customer', 'other tenant');
    const agentNotice = (await unread('agent')).find((n) => n.title === 'for the agent');
    expect(agentNotice).toBeDefined();
    expect((await unread('customer')).map((n) => n.title)).not.toContain('for the agent');
    expect((await unread('customer')).map((n) => n.title)).not.toContain('other tenant');
    expect((await f.as('customer').post('/api/admin/notice/read', { id: agentNotice?.id })).json().code).toBe(
      404,
    );
    expect(
      (await f.as('customer', f.tenant(1)).post('/api/admin/notice/read', { id: agentNotice?.id })).json()
        .code,
    ).toBe(404);
    expect((await unread('agent')).map((n) => n.title)).toContain('for the agent');
  });

  it('stores notice HTML sanitised', async () => {
    await noticeFor(
      f.t,
      'customer',
      'html',
      '<b>ok</b><script>alert(1)</script><img src=x onerror=alert(1)>',
    );
    const html = (await unread('customer')).find((n) => n.title === 'html');
    expect(html?.content).toBe('<b>ok</b>');
  });

  it('puts a system notice into the reader’s language when it is read, and shows older text notices as stored', async () => {
    const userId = await userIdOf(f.ctx, f.t.tenant.id, f.t.email('customer'));
    await noticeUser(f.db, {
      tenantId: f.t.tenant.id,
      userId,
      title: 'recharge.noticeTitle',
      content: {
        key: 'order.noticeStatus',
        params: {
          orderNo: 'ORD-KEYS-1',
          status: { key: 'orderStatus.in_transit' },
          reason: '<b>ok</b><script>x</script>',
        },
      },
      orderType: NoticeOrderType.Order,
      orderSn: 'ORD-KEYS-1',
    });
    // Written before notices kept keys: text in the language of its day.
    await createNotice(f.db, {
      tenantId: f.t.tenant.id,
      userId,
      title: '充值审核结果',
      content: '您的充值 R1 已审核通过',
      orderSn: 'OLD-TEXT-1',
    });
    const read = async (language: 'en-US' | 'zh-CN') => {
      const popped = (
        await f.as('customer').in(language).post('/api/admin/notice/userNotices', { type: 0 })
      ).json().data.list as { title: string; content: string; order_sn: string }[];
      const listed = (
        await f.as('customer').in(language).ok('/api/admin/notice/list', { page: 1, limit: 50 })
      ).list as { title: string; content: string; order_sn: string }[];
      return { popped, listed };
    };
    const expectedIn = (language: 'en-US' | 'zh-CN') => ({
      title: translate(language, 'recharge.noticeTitle'),
      content: translate(language, 'order.noticeStatus', {
        orderNo: 'ORD-KEYS-1',
        status: translate(language, 'orderStatus.in_transit'),
        reason: '<b>ok</b>',
      }),
    });
    for (const language of ['en-US', 'zh-CN'] as const) {
      const { popped, listed } = await read(language);
      for (const list of [popped, listed]) {
        expect(
          list.find((n) => n.order_sn === 'ORD-KEYS-1'),
          language,
        ).toMatchObject(expectedIn(language));
        expect(
          list.find((n) => n.order_sn === 'OLD-TEXT-1'),
          language,
        ).toMatchObject({
          title: '充值审核结果',
          content: '您的充值 R1 已审核通过',
        });
      }
    }
    expect(expectedIn('en-US').title).toBe('Recharge reviewed');
    expect(expectedIn('en-US').content).toBe('Order ORD-KEYS-1 is now "In transit". <b>ok</b>');
  });

  it('needs a session', async () => {
    const res = await f.anonymous().post('/api/admin/notice/userNotices', { type: 0 });
    expect(res.json().code).toBe(300);
  });
});
