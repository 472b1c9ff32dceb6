import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CARRIER_DOCUMENTS,
  type UpsActivity,
  upsActivity,
  upsTokenAnswer,
  upsTrackAnswer,
  useCarrierMock,
} from '../../../test/carrier-mock.ts';
import {
  expressTenant,
  selectedQuote,
  setExpressBalance,
  useExpressLine,
} from '../../../test/express-fixtures.ts';
import { useTestApp } from '../../../test/fixture.ts';
import type { TestTenant } from '../../../test/helpers.ts';
import { expressTrackingEvents, expressWaybillEvents, expressWaybills, notices } from '../../db/schema.ts';
import { carrierSettingsOf } from '../carriers/settings.ts';
import { karrioWebhookPath, karrioWebhookSecret, karrioWebhookSignature } from '../carriers/tracking.ts';
import {
  CARRIER_TRACKING_LOCK,
  type CarrierTrackingOptions,
  runCarrierTracking,
} from './carrier-tracking.ts';

/**
 * Tracking from the carrier: waybills booked through a UPS or Karrio account, their label bought, are
 * asked after by the poll (against validating mocks of UPS's Tracking and Karrio's documents) and by
 * Karrio's signed webhooks; the carrier's events become scans through the path staff scans take.
 */
const f = useTestApp({
  tenants: 2,
  signIn: [
    ['admin', 'customer'],
    ['admin', 'customer'],
  ],
  language: 'en-US',
});
useExpressLine(f);
const ups = useCarrierMock({ documents: CARRIER_DOCUMENTS.ups });
const karrio = useCarrierMock({ documents: CARRIER_DOCUMENTS.karrio, prefix: '/karrio' });

const UPS_SECRET = 'ups-secret-91c2d7';
const KARRIO_KEY = 'key_tracking_5e8a';
/** The UPS account of each tenant, and the first tenant's Karrio account. */
const upsAccounts: number[] = [];
let karrioAccount = 0;
let numbers = 0;

beforeAll(async () => {
  // The second tenant's express line, as the first one's.
  const second = f.tenant(1);
  const secondOrgs: Record<string, number> = {};
  for (const who of ['branch', 'agent', 'customer'] as const) secondOrgs[who] = await f.orgOf(who, second);
  await expressTenant(f.db, second.tenant.id, secondOrgs);
  for (const tenant of f.tenants) {
    const account = await f.as('admin', tenant).ok('/api/admin/carrierAccount/create', {
      kind: 'ups',
      label: 'UPS tracking',
      environment: 'custom',
      baseUrl: ups.url,
      timeoutMs: 1_500,
      credentials: { clientId: 'client-t', clientSecret: UPS_SECRET, accountNumber: 'T7Y9R5' },
    });
    upsAccounts.push(account.id);
  }
  const account = await f.as('admin').ok('/api/admin/carrierAccount/create', {
    kind: 'karrio',
    label: 'Karrio tracking',
    environment: 'custom',
    baseUrl: karrio.url,
    timeoutMs: 1_500,
    credentials: { apiKey: KARRIO_KEY },
  });
  karrioAccount = account.id;
});

/**
 * A waybill booked, paid and printed as any, then served by a carrier account with its label bought:
 * the columns the label job sets, set here directly.
 */
async function carrierWaybill(accountId: number, carrierService: string, tenant: TestTenant = f.t) {
  const tenantId = tenant.tenant.id;
  await setExpressBalance(f.db, tenantId, await f.orgOf('customer', tenant), 100_000n);
  const customer = f.as('customer', tenant);
  const quoteId = await selectedQuote(customer);
  const booked = await customer.ok('/api/express/order/create', { quoteId });
  await customer.ok('/api/express/order/pay', { id: booked.id });
  await customer.post('/api/express/order/print', { ids: [booked.id] });
  numbers += 1;
  const trackingNo = `1Z999AA1${String(70_000_000 + numbers)}`;
  await f.db
    .update(expressWaybills)
    .set({
      carrierAccountId: accountId,
      carrierService,
      carrierReference: `shp_${numbers}`,
      labelFile: `labels/${trackingNo}.pdf`,
      trackingNo,
    })
    .where(and(eq(expressWaybills.tenantId, tenantId), eq(expressWaybills.id, booked.id)));
  return { id: booked.id as number, waybillNo: booked.waybillNo as string, trackingNo, tenantId };
}

type Waybill = Awaited<ReturnType<typeof carrierWaybill>>;

async function stateOf(waybill: Waybill) {
  const [row] = await f.db
    .select({ status: expressWaybills.status })
    .from(expressWaybills)
    .where(and(eq(expressWaybills.tenantId, waybill.tenantId), eq(expressWaybills.id, waybill.id)));
  const scans = await f.db
    .select()
    .from(expressTrackingEvents)
    .where(
      and(
        eq(expressTrackingEvents.tenantId, waybill.tenantId),
        eq(expressTrackingEvents.waybillId, waybill.id),
      ),
    )
    .orderBy(asc(expressTrackingEvents.at));
  const heard = await f.db
    .select()
    .from(notices)
    .where(and(eq(notices.tenantId, waybill.tenantId), eq(notices.orderSn, waybill.waybillNo)));
  return { status: row?.status, scans, notices: heard };
}

/** The waybill's moves, as its timeline shows them. */
async function timeline(waybill: Waybill) {
  const moves = await f.db
    .select({ action: expressWaybillEvents.action })
    .from(expressWaybillEvents)
    .where(
      and(
        eq(expressWaybillEvents.tenantId, waybill.tenantId),
        eq(expressWaybillEvents.waybillId, waybill.id),
      ),
    )
    .orderBy(asc(expressWaybillEvents.id));
  return moves.map((m) => m.action);
}

/** What the poll logged, kept to be read. */
function logged() {
  const lines: { level: string; obj: object; msg: string }[] = [];
  const log: CarrierTrackingOptions['log'] = {
    warn: (obj, msg) => lines.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => lines.push({ level: 'error', obj, msg }),
  };
  return { lines, log };
}

const poll = (options: CarrierTrackingOptions = {}) =>
  runCarrierTracking(f.ctx.database, carrierSettingsOf(f.ctx.app.config), options);

/* ----- UPS ----- */

const activity = upsActivity;
const LABEL = activity('M', 'MP', 'Shipper created a label', '20260302', '091000', '');
const PICKUP = activity('P', 'PU', 'Pickup Scan', '20260302', '174700', 'Los Angeles');
const ARRIVED = activity('I', 'AR', 'Arrived at Facility', '20260304', '221000');
const OUT = activity('O', 'OT', 'Out For Delivery Today', '20260305', '081500');
const DELIVERED = activity('D', 'FS', 'Delivered', '20260305', '143210');

/** UPS answers each number with what `activityOf` says of it now. */
function upsTracks(activityOf: Map<string, UpsActivity[]>) {
  ups.respond('CreateToken', upsTokenAnswer('client-t', 'tok-track'));
  ups.respond('getSingleTrackResponseUsingGET', (request) => {
    const number = decodeURIComponent(request.path.split('/').pop() ?? '');
    return upsTrackAnswer(number, activityOf.get(number) ?? []);
  });
}

const trackCalls = (number: string) =>
  ups.requests.filter((r) => r.operationId === 'getSingleTrackResponseUsingGET' && r.path.endsWith(number))
    .length;

describe('tracking asked for now', () => {
  it('asks UPS about one waybill at once, then not again within the minute, and says why in words', async () => {
    const waybill = await carrierWaybill(upsAccounts[0] as number, '03');
    upsTracks(new Map([[waybill.trackingNo, [PICKUP, LABEL]]]));
    const customer = f.as('customer');
    const first = await customer.ok('/api/express/order/trackNow', { id: waybill.id });
    expect(first).toMatchObject({ asked: true, recorded: 1, failure: null });
    expect(first.message).toBe('The carrier was asked: 1 new tracking events');
    expect(trackCalls(waybill.trackingNo)).toBe(1);
    expect((await stateOf(waybill)).status).toBe('in_transit');
    // Within the minute the carrier is not asked again.
    const again = await customer.ok('/api/express/order/trackNow', { id: waybill.id });
    expect(again).toMatchObject({ asked: false, recorded: 0 });
    expect(trackCalls(waybill.trackingNo)).toBe(1);

    // A carrier that fails says so in the reader's language, and the waybill keeps its status.
    const down = await carrierWaybill(upsAccounts[0] as number, '03');
    ups.respond('getSingleTrackResponseUsingGET', { status: 500, body: { response: { errors: [] } } });
    const failed = await customer.in('zh-CN').ok('/api/express/order/trackNow', { id: down.id });
    expect(failed).toMatchObject({ asked: true, recorded: 0 });
    expect(failed.failure).not.toBeNull();
    expect(failed.message).toMatch(/[\u4e00-\u9fff]/);
    expect((await stateOf(down)).status).toBe('printed');
    ups.violations.length = 0;
  });
});

describe('tracking from UPS', () => {
  it('follows the parcel through the staff moves, records each scan once and tells the booking user of the delivery', async () => {
    const waybill = await carrierWaybill(upsAccounts[0] as number, '03');
    const activityOf = new Map([[waybill.trackingNo, [PICKUP, LABEL]]]);
    upsTracks(activityOf);

    const first = await poll();
    expect(first).toMatchObject({ failed: 0, recorded: 1 });
    let state = await stateOf(waybill);
    expect(state.status).toBe('in_transit');
    // The label UPS made is no scan: the pickup is the first.
    expect(state.scans).toMatchObject([
      {
        code: 'picked_up',
        source: 'carrier',
        actorId: null,
        at: new Date('2026-03-02T23:47:00Z'),
        location: 'Los Angeles, TX, US',
        note: 'Pickup Scan (PU)',
      },
    ]);
    expect(await timeline(waybill)).toEqual(['create', 'pay', 'print', 'hand_over', 'ship']);

    // Asked again with nothing new: nothing is recorded twice.
    expect(await poll()).toMatchObject({ recorded: 0 });
    expect((await stateOf(waybill)).scans).toHaveLength(1);
    expect(state.notices).toHaveLength(0);

    activityOf.set(waybill.trackingNo, [DELIVERED, OUT, ARRIVED, PICKUP, LABEL]);
    expect(await poll()).toMatchObject({ recorded: 3 });
    state = await stateOf(waybill);
    expect(state.status).toBe('delivered');
    expect(state.scans.map((s) => s.code)).toEqual([
      'picked_up',
      'in_transit',
      'out_for_delivery',
      'delivered',
    ]);
    expect(await timeline(waybill)).toEqual([
      'create',
      'pay',
      'print',
      'hand_over',
      'ship',
      'out_for_delivery',
      'deliver',
    ]);
    // The booking customer hears of the delivery once, as when staff record it.
    expect(state.notices).toHaveLength(1);
    expect(state.notices[0]).toMatchObject({ orderType: 4, userId: await f.userOf('customer') });
    expect(state.notices[0]?.content).toContain(waybill.waybillNo);

    // Delivered, the waybill is no longer asked after.
    const calls = trackCalls(waybill.trackingNo);
    await poll();
    expect(trackCalls(waybill.trackingNo)).toBe(calls);
    expect((await stateOf(waybill)).scans).toHaveLength(4);
  });

  it("asks every tenant's accounts in one run, each tenant's through its own account", async () => {
    const mine = await carrierWaybill(upsAccounts[0] as number, '03');
    const theirs = await carrierWaybill(upsAccounts[1] as number, '03', f.tenant(1));
    upsTracks(
      new Map([
        [mine.trackingNo, [ARRIVED, PICKUP]],
        [theirs.trackingNo, [OUT, ARRIVED, PICKUP]],
      ]),
    );

    const run = await poll();
    expect(run?.accounts).toBeGreaterThanOrEqual(2);
    expect((await stateOf(mine)).status).toBe('in_transit');
    expect((await stateOf(theirs)).status).toBe('out_for_delivery');
    expect((await stateOf(theirs)).scans.every((s) => s.tenantId === theirs.tenantId)).toBe(true);
  });

  it('keeps a waybill as it was when UPS fails, and logs why without the credentials', async () => {
    const waybill = await carrierWaybill(upsAccounts[0] as number, '03');
    ups.respond('CreateToken', upsTokenAnswer('client-t', 'tok-refused'));
    ups.respond('getSingleTrackResponseUsingGET', {
      status: 401,
      body: { response: { errors: [{ code: '250002', message: 'Invalid Authentication Information.' }] } },
    });
    const { lines, log } = logged();

    const run = await poll({ log });
    expect(run?.failed).toBeGreaterThanOrEqual(1);
    const state = await stateOf(waybill);
    expect(state.status).toBe('printed');
    expect(state.scans).toEqual([]);
    // The first parcel's refusal stops the account's run: the others wait, told of in the same line.
    const waiting = await f.db
      .select({ trackingNo: expressWaybills.trackingNo })
      .from(expressWaybills)
      .where(
        and(
          eq(expressWaybills.carrierAccountId, upsAccounts[0] as number),
          inArray(expressWaybills.status, ['printed', 'in_transit']),
        ),
      );
    expect(waiting.length).toBeGreaterThanOrEqual(2);
    expect(waiting.filter((w) => trackCalls(w.trackingNo) > 0)).toHaveLength(1);
    const warning = lines.find(
      (l) => l.level === 'warn' && (l.obj as { accountId?: number }).accountId === upsAccounts[0],
    );
    expect(warning?.obj).toMatchObject({
      tenantId: waybill.tenantId,
      failure: 'credentials',
      detail: 'Invalid Authentication Information. (250002)',
      waybills: waiting.length,
    });
    const text = JSON.stringify(lines);
    for (const secret of [
      UPS_SECRET,
      'tok-refused',
      Buffer.from(`client-t:${UPS_SECRET}`).toString('base64'),
    ])
      expect(text).not.toContain(secret);

    // UPS answers again: the next run picks the parcel up where it is.
    upsTracks(new Map([[waybill.trackingNo, [PICKUP]]]));
    await poll();
    expect((await stateOf(waybill)).status).toBe('in_transit');
  });
});

describe('one run at a time', () => {
  it('skips a run while another is going on in the process', async () => {
    const runs = await Promise.all([poll(), poll()]);
    expect(runs.filter((run) => run === null)).toHaveLength(1);
    expect(await poll()).not.toBeNull();
  });

  // PGlite is one session no other process can open; on PostgreSQL another process holds the lock.
  it.runIf(process.env.TEST_DB === 'pg')('skips while another process holds the lock', async () => {
    const result = await f.db.execute(sql`select current_database() as name`);
    const [row] = (result as unknown as { rows: { name: string }[] }).rows;
    const url = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    url.pathname = `/${row?.name}`;
    const holder = new pg.Client({ connectionString: url.toString() });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock(hashtextextended($1, 0))', [CARRIER_TRACKING_LOCK]);
      expect(await poll()).toBeNull();
      await holder.query('select pg_advisory_unlock(hashtextextended($1, 0))', [CARRIER_TRACKING_LOCK]);
      expect(await poll()).not.toBeNull();
    } finally {
      await holder.end();
    }
  });
});

/* ----- Karrio ----- */

const karrioEvent = (
  date: string,
  time: string,
  description: string,
  code: string,
  location = 'DALLAS, TX',
) => ({
  date,
  time,
  description,
  location,
  code,
});

/** A Karrio tracker as its document shapes it, events newest first as most carriers list them. */
const tracker = (trackingNumber: string, status: string, events: ReturnType<typeof karrioEvent>[]) => ({
  id: `trk_${trackingNumber.slice(-4)}`,
  carrier_name: 'ups',
  carrier_id: 'ups-main',
  tracking_number: trackingNumber,
  status,
  delivered: status === 'delivered',
  test_mode: false,
  events,
  messages: [],
});

const DEPARTED = karrioEvent('2026-03-03', '05:47 PM', 'Departed from Facility', 'DP', 'LOS ANGELES, CA');
const ORIGIN = karrioEvent('2026-03-02', '06:10 PM', 'Origin Scan', 'OR', 'LOS ANGELES, CA');
const K_OUT = karrioEvent('2026-03-05', '08:15 AM', 'Out For Delivery', 'OT');
const K_DELIVERED = karrioEvent('2026-03-05', '02:32 PM', 'Delivered', 'FS');

describe('tracking from Karrio', () => {
  it("gives the newest event the tracker's status, records earlier ones once, and asks through the waybill's carrier", async () => {
    const waybill = await carrierWaybill(karrioAccount, 'ups:ups_ground');
    let answer = tracker(waybill.trackingNo, 'in_transit', [DEPARTED, ORIGIN]);
    karrio.respond('addTracker', () => ({ body: answer }));

    await poll();
    const asked = karrio.requests.filter((r) => r.operationId === 'addTracker');
    expect(asked.at(-1)).toMatchObject({
      body: { tracking_number: waybill.trackingNo, carrier_name: 'ups' },
      headers: { authorization: `Token ${KARRIO_KEY}` },
    });
    let state = await stateOf(waybill);
    expect(state.status).toBe('in_transit');
    expect(state.scans.map((s) => [s.code, s.note, s.location])).toEqual([
      ['in_transit', 'Origin Scan (OR)', 'LOS ANGELES, CA'],
      ['in_transit', 'Departed from Facility (DP)', 'LOS ANGELES, CA'],
    ]);
    await poll();
    expect((await stateOf(waybill)).scans).toHaveLength(2);

    // Delivered since: the earlier events keep the kind they were first recorded with.
    answer = tracker(waybill.trackingNo, 'delivered', [K_DELIVERED, K_OUT, DEPARTED, ORIGIN]);
    await poll();
    state = await stateOf(waybill);
    expect(state.status).toBe('delivered');
    expect(state.scans.map((s) => s.code)).toEqual(['in_transit', 'in_transit', 'in_transit', 'delivered']);
    expect(state.scans.at(-1)).toMatchObject({
      at: new Date('2026-03-05T14:32:00Z'),
      location: 'DALLAS, TX',
    });
    expect(state.notices).toHaveLength(1);
  });

  it('records nothing while the parcel waits for pickup', async () => {
    const waybill = await carrierWaybill(karrioAccount, 'ups:ups_ground');
    karrio.respond('addTracker', {
      body: tracker(waybill.trackingNo, 'pending', [
        karrioEvent('2026-03-02', '09:10 AM', 'Label created', 'MP'),
      ]),
    });

    await poll();
    const state = await stateOf(waybill);
    expect(state.status).toBe('printed');
    expect(state.scans).toEqual([]);
  });
});

/* ----- Karrio's webhooks ----- */

describe("Karrio's tracker webhook", () => {
  const settings = () => carrierSettingsOf(f.ctx.app.config);
  const secretOf = (accountId: number) =>
    karrioWebhookSecret(settings().keys, f.t.tenant.id, accountId) as string;

  function webhook(accountId: number, body: string, signature?: string, eventId?: string) {
    return f.ctx.app.inject({
      method: 'POST',
      url: karrioWebhookPath(accountId),
      headers: {
        host: f.t.host,
        'accept-language': 'en-US',
        'content-type': 'application/json',
        ...(signature === undefined ? {} : { 'x-event-signature': signature }),
        // Where a stock Karrio server puts its webhook's secret.
        ...(eventId === undefined ? {} : { 'x-event-id': eventId }),
      },
      payload: body,
    });
  }

  it('refuses a body that is not signed with the account’s secret, in the usual envelope', async () => {
    const waybill = await carrierWaybill(karrioAccount, 'ups:ups_ground');
    const body = JSON.stringify({
      event: 'tracker_updated',
      data: tracker(waybill.trackingNo, 'delivered', [K_DELIVERED]),
    });
    const refusals = [
      await webhook(karrioAccount, body),
      await webhook(karrioAccount, body, 'sha256=zz'),
      await webhook(karrioAccount, body, karrioWebhookSignature('whsec_guessed', body)),
      // Signed, then changed on the way.
      await webhook(
        karrioAccount,
        body.replace('delivered', 'cancelled'),
        karrioWebhookSignature(secretOf(karrioAccount), body),
      ),
      // Another account's secret, or an account that is not Karrio's.
      await webhook(karrioAccount, body, karrioWebhookSignature(secretOf(upsAccounts[0] as number), body)),
      await webhook(
        upsAccounts[0] as number,
        body,
        karrioWebhookSignature(secretOf(upsAccounts[0] as number), body),
      ),
      await webhook(999_999, body, karrioWebhookSignature(secretOf(999_999), body)),
    ];
    for (const res of refusals) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({
        code: 300,
        msg: "Bad webhook signature: the request is not signed with this carrier account's webhook secret",
        data: null,
      });
    }
    const state = await stateOf(waybill);
    expect(state.status).toBe('printed');
    expect(state.scans).toEqual([]);
  });

  it('records a signed tracker update as the poll does, once, and hears other events without acting', async () => {
    const waybill = await carrierWaybill(karrioAccount, 'ups:ups_ground');
    const secret = secretOf(karrioAccount);
    const body = JSON.stringify({
      event: 'tracker_updated',
      data: tracker(waybill.trackingNo, 'out_for_delivery', [K_OUT, DEPARTED, ORIGIN]),
      test_mode: false,
    });

    const res = await webhook(karrioAccount, body, karrioWebhookSignature(secret, body));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ code: 200, data: { recorded: 3 } });
    const state = await stateOf(waybill);
    expect(state.status).toBe('out_for_delivery');
    expect(state.scans.map((s) => s.code)).toEqual(['in_transit', 'in_transit', 'out_for_delivery']);
    expect(await timeline(waybill)).toEqual([
      'create',
      'pay',
      'print',
      'hand_over',
      'ship',
      'out_for_delivery',
    ]);

    // Karrio sends again (a retry): nothing more. The hex may come in capitals and without `sha256=`.
    const again = await webhook(
      karrioAccount,
      body,
      karrioWebhookSignature(secret, body).slice(7).toUpperCase(),
    );
    expect(again.json()).toMatchObject({ code: 200, data: { recorded: 0 } });
    expect((await stateOf(waybill)).scans).toHaveLength(3);

    // Another kind of event, or a tracker of no parcel of ours: heard, nothing recorded.
    for (const other of [
      { event: 'shipment_purchased', data: { id: 'shp_1' } },
      { event: 'tracker_updated', data: tracker('1Z000NOTOURS0001', 'delivered', [K_DELIVERED]) },
    ]) {
      const text = JSON.stringify(other);
      const heard = await webhook(karrioAccount, text, karrioWebhookSignature(secret, text));
      expect(heard.json()).toMatchObject({ code: 200, data: { recorded: 0 } });
    }

    // Signed but not a tracker Karrio's document describes: refused as bad input.
    const broken = JSON.stringify({ event: 'tracker_updated', data: { status: 'delivered' } });
    const bad = await webhook(karrioAccount, broken, karrioWebhookSignature(secret, broken));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data.fields[0].field).toBe('body');
  });

  it('gives staff who may save carrier accounts the webhook’s path and secret', async () => {
    const view = await f.as('admin').ok('/api/admin/carrierAccount/webhook', { id: karrioAccount });
    expect(view).toEqual({
      path: `/api/carriers/karrio/webhook/${karrioAccount}`,
      header: 'x-event-signature',
      secret: secretOf(karrioAccount),
    });
    expect(view.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    await f.as('admin').fail('/api/admin/carrierAccount/webhook', { id: upsAccounts[0] }, 400);
    await f.as('customer').fail('/api/admin/carrierAccount/webhook', { id: karrioAccount }, 401);
    await f.as('admin', f.tenant(1)).fail('/api/admin/carrierAccount/webhook', { id: karrioAccount }, 404);
  });

  it('registers the portal at Karrio, takes the events Karrio sends with its secret, and ends it there', async () => {
    const secrets = ['whsec_karrio_made_4f1a9c2e7b3d8e60', 'whsec_karrio_made_second_91b2c3d4e5'];
    let made = 0;
    karrio.respond('createWebhook', (request) => {
      const body = request.body as { url: string; enabled_events: string[]; description?: string };
      made += 1;
      return {
        status: 201,
        body: {
          id: `web_${made}`,
          object_type: 'webhook',
          url: body.url,
          description: body.description ?? null,
          enabled_events: body.enabled_events,
          secret: secrets[made - 1],
          test_mode: false,
          disabled: false,
          last_event_at: null,
        },
      };
    });
    karrio.respond('removeWebhook', { body: { operation: 'Webhook deleted', success: true } });

    const registered = await f
      .as('admin')
      .ok('/api/admin/carrierAccount/registerWebhook', { id: karrioAccount });
    const url = `http://${f.t.host}/api/carriers/karrio/webhook/${karrioAccount}`;
    expect(registered.webhook).toMatchObject({ url });
    const created = karrio.requests.filter((r) => r.operationId === 'createWebhook');
    expect(created.map((r) => r.body)).toEqual([
      { url, description: 'Freight portal tracking: Karrio tracking', enabled_events: ['tracker_updated'] },
    ]);
    expect(created[0]?.headers.authorization).toBe(`Token ${KARRIO_KEY}`);

    // An event as Karrio sends it: its secret in X-Event-Id, the body unsigned.
    const waybill = await carrierWaybill(karrioAccount, 'ups:ups_ground');
    const body = JSON.stringify({
      event: 'tracker_updated',
      data: tracker(waybill.trackingNo, 'out_for_delivery', [K_OUT, DEPARTED, ORIGIN]),
    });
    expect((await webhook(karrioAccount, body, undefined, 'whsec_guessed_0000000000')).statusCode).toBe(401);
    // Another account's registration never opens this one.
    expect((await webhook(upsAccounts[0] as number, body, undefined, secrets[0])).statusCode).toBe(401);
    const taken = await webhook(karrioAccount, body, undefined, secrets[0]);
    expect(taken.json()).toMatchObject({ code: 200, data: { recorded: 3 } });
    expect((await stateOf(waybill)).status).toBe('out_for_delivery');

    // Registered again: the new secret opens, the old one no longer does, and the old webhook is ended.
    await f.as('admin').ok('/api/admin/carrierAccount/registerWebhook', { id: karrioAccount });
    expect((await webhook(karrioAccount, body, undefined, secrets[0])).statusCode).toBe(401);
    expect((await webhook(karrioAccount, body, undefined, secrets[1])).json()).toMatchObject({ code: 200 });
    expect(karrio.requests.filter((r) => r.operationId === 'removeWebhook').map((r) => r.path)).toEqual([
      '/karrio/v1/webhooks/web_1',
    ]);

    // The secret is in no answer, list or log line the portal gives.
    const listed = await f.as('admin').ok('/api/admin/carrierAccount/list', { page: 1, limit: 50 });
    const log = await f.as('admin').ok('/api/admin/operationLog/list', { page: 1, limit: 50 });
    for (const text of [JSON.stringify(registered), JSON.stringify(listed), JSON.stringify(log)])
      for (const secret of secrets) expect(text).not.toContain(secret);
    expect(JSON.stringify(log)).toContain('carrierAccount.registerWebhook');

    // Only staff who may save carrier accounts, of this tenant, for a Karrio account.
    await f.as('customer').fail('/api/admin/carrierAccount/registerWebhook', { id: karrioAccount }, 401);
    await f
      .as('admin', f.tenant(1))
      .fail('/api/admin/carrierAccount/registerWebhook', { id: karrioAccount }, 404);
    await f.as('admin').fail('/api/admin/carrierAccount/registerWebhook', { id: upsAccounts[0] }, 400);

    // Ended: Karrio is told first, and its secret opens nothing after.
    const removed = await f.as('admin').ok('/api/admin/carrierAccount/removeWebhook', { id: karrioAccount });
    expect(removed.webhook).toBeNull();
    expect(karrio.requests.filter((r) => r.operationId === 'removeWebhook').map((r) => r.path)).toEqual([
      '/karrio/v1/webhooks/web_1',
      '/karrio/v1/webhooks/web_2',
    ]);
    expect((await webhook(karrioAccount, body, undefined, secrets[1])).statusCode).toBe(401);
    expect(karrio.violations).toEqual([]);
  });

  it('keeps nothing when Karrio refuses the webhook, and says why in the reader’s language', async () => {
    karrio.respond('createWebhook', {
      status: 400,
      body: { errors: [{ code: 'invalid', message: 'Enter a valid URL.' }] },
    });
    const before = await f.as('admin').ok('/api/admin/carrierAccount/list', { page: 1, limit: 50 });
    const res = await f
      .as('admin')
      .fail('/api/admin/carrierAccount/registerWebhook', { id: karrioAccount }, 400);
    expect(res.msg).toBe(
      'Karrio did not handle the tracking webhook: The carrier refused the request: Enter a valid URL. (invalid)',
    );
    const zh = await f
      .as('admin')
      .in('zh-CN')
      .fail('/api/admin/carrierAccount/registerWebhook', { id: karrioAccount }, 400);
    expect(zh.msg).toMatch(/^Karrio 未能处理轨迹 Webhook:/);
    const after = await f.as('admin').ok('/api/admin/carrierAccount/list', { page: 1, limit: 50 });
    expect(after.list.find((a: { id: number }) => a.id === karrioAccount).webhook).toEqual(
      before.list.find((a: { id: number }) => a.id === karrioAccount).webhook,
    );
  });

  it('ends the webhook at Karrio when its account is deleted', async () => {
    const account = await f.as('admin').ok('/api/admin/carrierAccount/create', {
      kind: 'karrio',
      label: 'Karrio going away',
      environment: 'custom',
      baseUrl: karrio.url,
      timeoutMs: 1_500,
      credentials: { apiKey: KARRIO_KEY },
    });
    karrio.respond('createWebhook', (request) => ({
      status: 201,
      body: {
        id: 'web_gone',
        url: (request.body as { url: string }).url,
        enabled_events: ['tracker_updated'],
        secret: 'whsec_account_going_away_1f2e3d4c',
        test_mode: false,
      },
    }));
    karrio.respond('removeWebhook', { body: { operation: 'Webhook deleted', success: true } });
    await f.as('admin').ok('/api/admin/carrierAccount/registerWebhook', { id: account.id });
    await f.as('admin').ok('/api/admin/carrierAccount/delete', { id: account.id });
    expect(karrio.requests.filter((r) => r.operationId === 'removeWebhook').map((r) => r.path)).toEqual([
      '/karrio/v1/webhooks/web_gone',
    ]);
    expect(karrio.violations).toEqual([]);
  });
});
