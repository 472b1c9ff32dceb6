import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';

const f = useTestApp({ tenants: 2, signIn: [['admin', 'editor', 'customer', 'agent'], ['admin']] });

const hourAgo = () => new Date(Date.now() - 3_600_000).toISOString();

describe('feature updates', () => {
  it('lights the dot for a new entry until the user opens them, per user', async () => {
    const customer = f.as('customer');
    expect(await customer.ok('/api/admin/changelog/feed')).toEqual({ list: [], unread: false });

    const older = await f.as('editor').ok('/api/admin/changelog/save', {
      title: 'Batch orders',
      body: 'Import many orders at once.\n\n- truck\n- express',
      publishedAt: new Date(Date.now() - 7_200_000).toISOString(),
    });
    const newer = await f.as('admin').ok('/api/admin/changelog/save', {
      title: 'Quotes stream in',
      body: 'Carriers answer as they finish.',
      publishedAt: hourAgo(),
    });
    await f.as('admin').ok('/api/admin/changelog/save', {
      title: 'Scheduled',
      body: 'Not yet.',
      publishedAt: new Date(Date.now() + 86_400_000).toISOString(),
    });

    const feed = await customer.ok('/api/admin/changelog/feed');
    expect(feed.unread).toBe(true);
    expect(feed.list.map((e: { id: number }) => e.id)).toEqual([newer.id, older.id]);
    await customer.ok('/api/admin/changelog/seen');
    expect((await customer.ok('/api/admin/changelog/feed')).unread).toBe(false);
    // Another user has not opened them yet.
    expect((await f.as('agent').ok('/api/admin/changelog/feed')).unread).toBe(true);

    // An entry published later lights the dot again.
    await f.as('admin').ok('/api/admin/changelog/save', {
      title: 'Now',
      body: 'Fresh.',
      publishedAt: new Date(Date.now() + 1_000).toISOString(),
    });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await customer.ok('/api/admin/changelog/feed')).unread).toBe(true);

    // Another tenant sees none of them, and cannot change or delete them.
    expect(await f.as('admin', f.tenant(1)).ok('/api/admin/changelog/feed')).toEqual({
      list: [],
      unread: false,
    });
    await f.as('admin', f.tenant(1)).fail('/api/admin/changelog/delete', { id: newer.id }, 404);
    await f
      .as('admin', f.tenant(1))
      .fail(
        '/api/admin/changelog/save',
        { id: newer.id, title: 'x', body: 'y', publishedAt: hourAgo() },
        404,
      );
  });

  it('lets staff list, edit and delete entries; the customer may not, and fields are named', async () => {
    const saved = await f.as('admin').ok('/api/admin/changelog/save', {
      title: 'Draft',
      body: 'Body',
      publishedAt: hourAgo(),
    });
    await f.as('admin').ok('/api/admin/changelog/save', {
      id: saved.id,
      title: 'Edited <b>title</b>',
      body: 'Body',
      publishedAt: hourAgo(),
    });
    const page = await f
      .as('editor')
      .ok('/api/admin/changelog/list', { keyword: 'edited', page: 1, limit: 10 });
    expect(page).toMatchObject({ total: 1, list: [{ id: saved.id, title: 'Edited <b>title</b>' }] });
    await f.as('customer').fail('/api/admin/changelog/list', {}, 401);
    await f
      .as('customer')
      .fail('/api/admin/changelog/save', { title: 'x', body: 'y', publishedAt: hourAgo() }, 401);
    const bad = await f
      .as('admin')
      .in('en-US')
      .fail('/api/admin/changelog/save', { title: '', body: '', publishedAt: 'soon' }, 400);
    expect(bad.data.fields.map((x: { field: string }) => x.field)).toEqual(['title', 'body', 'publishedAt']);
    expect(bad.data.fields[0].message).toMatch(/^Title/);
    await f.as('admin').ok('/api/admin/changelog/delete', { id: saved.id });
    await f.as('admin').fail('/api/admin/changelog/delete', { id: saved.id }, 404);
  });
});
