import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestApp } from '../../../test/fixture.ts';
import { AD_FEED_TIMEOUT_MS, forgetCachedAds } from './ads.ts';

/** A real ad service on a local port; each path answers one way. */
let feed: Server;
let hits = 0;
const feedUrl = (path: string) => `http://127.0.0.1:${(feed.address() as AddressInfo).port}${path}`;

beforeAll(async () => {
  feed = createServer((req, res) => {
    hits++;
    const send = (status: number, body: string) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    };
    if (req.url === '/good')
      return send(
        200,
        JSON.stringify([
          { title: 'Spring sale', url: 'https://ads.example.com/spring' },
          { title: 'Script', url: 'javascript:alert(1)' },
          { title: 'Next day', url: 'http://ads.example.com/next' },
        ]),
      );
    if (req.url === '/wrapped')
      return send(200, JSON.stringify({ data: { list: [{ title: 'A', url: 'https://a.example' }] } }));
    if (req.url === '/slow') {
      const timer = setTimeout(
        () => send(200, JSON.stringify([{ title: 'Late', url: 'https://late.example' }])),
        5_000,
      );
      req.on('close', () => clearTimeout(timer));
      return;
    }
    if (req.url === '/bad-json') return send(200, '{"title": "half');
    if (req.url === '/object') return send(200, JSON.stringify({ title: 'not a list' }));
    return send(500, JSON.stringify({ error: 'down' }));
  });
  await new Promise<void>((resolve) => feed.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => feed.close(() => resolve())));
beforeEach(() => {
  forgetCachedAds();
  hits = 0;
});

describe('ads from an external feed', () => {
  const f = useTestApp({
    signIn: ['admin', 'customer'],
    app: () => ({ config: { AD_SERVICE_URL: feedUrl('/good') } }),
  });
  // The app reads AD_SERVICE_URL from its configuration on each call; each case points it at one behaviour.
  const adsFrom = async (path: string) => {
    f.ctx.app.config.AD_SERVICE_URL = feedUrl(path);
    const res = await f.as('customer').get('/api/common/ads');
    expect(res.statusCode).toBe(200);
    expect(res.json().code).toBe(200);
    return res.json().data.list;
  };

  it('shows the feed’s ads with http(s) links only, and asks the feed once a minute per process', async () => {
    expect(await adsFrom('/good')).toEqual([
      { title: 'Spring sale', url: 'https://ads.example.com/spring' },
      { title: 'Next day', url: 'http://ads.example.com/next' },
    ]);
    await adsFrom('/good');
    await adsFrom('/good');
    expect(hits).toBe(1);
    expect(await adsFrom('/wrapped')).toEqual([{ title: 'A', url: 'https://a.example' }]);
  });

  it('shows no ads, never an error, when the feed is slow, broken or down', async () => {
    const started = Date.now();
    expect(await adsFrom('/slow')).toEqual([]);
    expect(Date.now() - started).toBeLessThan(AD_FEED_TIMEOUT_MS + 1_500);
    expect(await adsFrom('/bad-json')).toEqual([]);
    expect(await adsFrom('/object')).toEqual([]);
    expect(await adsFrom('/500')).toEqual([]);
    f.ctx.app.config.AD_SERVICE_URL = 'http://127.0.0.1:1/nobody';
    const res = await f.as('customer').get('/api/common/ads');
    expect(res.json()).toMatchObject({ code: 200, data: { list: [] } });
  });

  it('says on the site page that the feed is in use', async () => {
    f.ctx.app.config.AD_SERVICE_URL = feedUrl('/good');
    expect(await f.as('admin').ok('/api/admin/site/ads/info')).toEqual({ ads: [], externalFeed: true });
  });
});

describe('the tenant’s own ads', () => {
  const f = useTestApp({ tenants: 2, signIn: [['admin', 'customer'], ['customer']] });

  it('are set by staff on the site configuration and shown to the tenant’s users only', async () => {
    const ads = [
      { title: '新线路上线', url: 'https://portal.example.com/lanes' },
      { title: 'Holiday hours', url: 'http://portal.example.com/hours' },
    ];
    await f.as('admin').ok('/api/admin/site/ads/save', { ads });
    expect(await f.as('admin').ok('/api/admin/site/ads/info')).toEqual({ ads, externalFeed: false });
    const mine = await f.as('customer').get('/api/common/ads');
    expect(mine.json().data.list).toEqual(ads);
    const theirs = await f.as('customer', f.tenant(1)).get('/api/common/ads');
    expect(theirs.json().data.list).toEqual([]);
    const anonymous = await f.anonymous().get('/api/common/ads');
    expect(anonymous.json().code).toBe(300);
  });

  it('refuses links that are not http(s), naming the field, and the customer', async () => {
    const bad = await f
      .as('admin')
      .in('en-US')
      .fail('/api/admin/site/ads/save', { ads: [{ title: 'x', url: 'javascript:alert(1)' }] }, 400);
    expect(bad.data.fields).toEqual([
      { field: 'ads.0.url', message: 'Ad link must start with http:// or https://' },
    ]);
    await f.as('customer').fail('/api/admin/site/ads/save', { ads: [] }, 401);
    await f.as('admin').ok('/api/admin/site/ads/save', { ads: [] });
    expect((await f.as('customer').get('/api/common/ads')).json().data.list).toEqual([]);
  });
});
