// The order list and the order as a caller sees it: the columns a list row reads, the prices and
// actions each side may see, the list's filters and counts, its first pages kept while the database
// says they are current, and the export's pages. Booking, paying and moving orders are in service.ts.
import { PAGE_SIZES } from '@freight/contracts/api';
import { formatMoney } from '@freight/contracts/money';
import {
  ADDRESS_EDITABLE,
  ORDER_COUNT_CAP,
  ORDER_STATUSES,
  type OrderAction,
  type OrderListQuery,
  type OrderStatus,
  type OrderViewAction,
  orderMachine,
} from '@freight/contracts/truck-orders';
import { type PriceLevel, visibleLevels } from '@freight/contracts/truck-quotes';
import { and, desc, eq, getTableColumns, inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { perHandle } from '../../db/per-handle.ts';
import { rowsOf } from '../../lib/bulk-insert.ts';
import { dayRange, numbersStartWith } from '../../lib/filters.ts';
import { cappedCount, keysetPages, olderThanRow } from '../../lib/keyset.ts';
import { answerOnce } from '../../lib/response-serializer.ts';
import { contentKey, handleKey, ShortCache } from '../../lib/short-cache.ts';
import {
  organisationScope,
  scopeParamsOf,
  visibleOrganisationIds,
  visibleOrganisationIdsPrepared,
} from '../customers/service.ts';
import { truckOrderCounts, truckOrders } from './schema.ts';
import type { OrderRow } from './service.ts';
import { type Caller, isStaff, type OrderViewer } from './viewer.ts';

const money = (cents: bigint | null) => (cents === null ? null : formatMoney(cents));

/** The button a staff member needs for each action; owners are bound by the status machine alone. */
export function orderActionButton(action: OrderAction, staff: boolean): string | null {
  if (action === 'cancel') return 'order:cancel';
  if (!staff || action === 'pay') return null;
  return action === 'approve' || action === 'reject' ? 'order:review' : 'order:update';
}

/** The pages through which the customer's side opens work orders. */
const WORK_ORDER_PAGES = ['/workOrderList', '/work-order-copy'];

/**
 * What the caller may do with the order now: the machine's moves for its side, less those whose
 * button it lacks; editing the addresses until pickup; opening a work order on it for the customer's
 * side. Pages show these and nothing else.
 */
export function orderActions(order: Pick<OrderRow, 'status'>, caller: OrderViewer): OrderViewAction[] {
  const staff = isStaff(caller);
  const moves = orderMachine.actions(order.status, staff ? 'staff' : 'owner').filter((action) => {
    const button = orderActionButton(action, staff);
    return button === null || caller.grants.has(button);
  });
  const actions: OrderViewAction[] = [...moves];
  if (ADDRESS_EDITABLE.includes(order.status)) actions.push('edit_address');
  if (!staff && WORK_ORDER_PAGES.some((page) => caller.grants.has(page))) actions.push('open_work_order');
  return actions;
}

/**
 * The transaction that wrote the row's current version (PostgreSQL's `xmin`): every update of an
 * order, of any column, gives it a new one.
 */
const rowVersionColumn = sql<string>`"truck_orders"."xmin"::text`;

/**
 * The columns of a list row: every column but the shipment and the stored quote, of which only the
 * product's names and service level are read. A page of rows then carries no JSON the list does not show.
 */
const listColumns = (() => {
  const { shipment: _s, quote: _q, customerOrderNoUpper: _u, ...columns } = getTableColumns(truckOrders);
  return {
    ...columns,
    serviceLevel: sql<string>`coalesce(${truckOrders.quote}->>'serviceLevel', '')`,
    productName: sql<string>`coalesce(${truckOrders.quote}->>'name', '')`,
    productNameEn: sql<string>`coalesce(${truckOrders.quote}->>'nameEn', '')`,
    rowVersion: rowVersionColumn,
  };
})();
type OrderListRow = Omit<OrderRow, 'shipment' | 'quote' | 'customerOrderNoUpper'> & {
  serviceLevel: string;
  productName: string;
  productNameEn: string;
  rowVersion: string;
};

/**
 * An order as a row of the list, as the caller may see it: staff see every level's price; an agent or
 * branch sees its own price and those below it; a customer sees only what it pays.
 */
function listItemForCaller(
  order: Omit<OrderListRow, 'rowVersion'> & { rowVersion?: string; customerOrderNoUpper?: string },
  caller: OrderViewer,
) {
  const staff = isStaff(caller);
  const levels = staff ? order.levels : visibleLevels(order.levels, caller.organisationId);
  const sees = (type: PriceLevel['type']) => levels.some((l) => l.type === type);
  const { tenantId: _t, levels: _l, rowVersion: _v, customerOrderNoUpper: _u, ...rest } = order;
  return {
    ...rest,
    total: formatMoney(order.total),
    freight: formatMoney(order.freight),
    fuel: formatMoney(order.fuel),
    surcharge: formatMoney(order.surcharge),
    premium: formatMoney(order.premium),
    insuredAmount: formatMoney(order.insuredAmount),
    paid: formatMoney(order.paid),
    costPrice: staff ? formatMoney(order.costPrice) : null,
    branchPrice: sees('branch') ? money(order.branchPrice) : null,
    agentPrice: sees('agent') ? money(order.agentPrice) : null,
    customerPrice: formatMoney(order.total),
    actions: orderActions(order, caller),
  };
}

/** An order as the caller may see it, whole: the list row with its shipment, accessorials and rated lines. */
export function orderForCaller(order: OrderRow, caller: OrderViewer) {
  const { shipment, quote, ...row } = order;
  const levels = isStaff(caller) ? order.levels : visibleLevels(order.levels, caller.organisationId);
  return {
    ...listItemForCaller(
      { ...row, serviceLevel: quote.serviceLevel, productName: quote.name, productNameEn: quote.nameEn },
      caller,
    ),
    shipment,
    accessorials: (levels[levels.length - 1]?.accessorials ?? []).map((a) => ({
      code: a.code,
      fee: formatMoney(BigInt(a.fee)),
    })),
    lines: quote.ok ? quote.breakdown.lines.map(({ rate: _r, charge: _c, ...line }) => line) : [],
  };
}

/**
 * Orders whose number, query code or customer's own number starts with what was typed: three prefix
 * indexes answer it over millions of orders, under row-level security too (test/list-indexes.test.ts).
 */
export const orderNumberSearch = (keyword: string) =>
  numbersStartWith([truckOrders.orderNo, truckOrders.queryCode, truckOrders.customerOrderNoUpper], keyword);

/** The list's condition; with `organisationId`, that one organisation of the scope in its place. */
function listCondition(
  db: DbOrTx,
  caller: Caller,
  scope: Awaited<ReturnType<typeof organisationScope>>,
  q: OrderListQuery,
  organisationId?: number,
) {
  return and(
    eq(truckOrders.tenantId, caller.tenantId),
    organisationId !== undefined
      ? eq(truckOrders.organisationId, organisationId)
      : scope.kind === 'subtree'
        ? inArray(truckOrders.organisationId, visibleOrganisationIds(db, scope))
        : undefined,
    q.keyword ? orderNumberSearch(q.keyword) : undefined,
    q.status ? eq(truckOrders.status, q.status) : undefined,
    q.mode ? eq(truckOrders.mode, q.mode) : undefined,
    q.productId ? eq(truckOrders.productId, q.productId) : undefined,
    q.organisationId ? eq(truckOrders.organisationId, q.organisationId) : undefined,
    q.orderType ? eq(truckOrders.orderType, q.orderType) : undefined,
    ...dayRange(truckOrders.createdAt, q.from, q.to),
  );
}

/**
 * The status counts from `truck_order_counts` (kept by triggers), for a list filtered at most by
 * status and organisation: one read of a few rows per organisation, however many orders there are.
 */
async function keptCounts(
  db: DbOrTx,
  caller: Caller,
  scope: Awaited<ReturnType<typeof organisationScope>>,
  q: OrderListQuery,
): Promise<Map<OrderStatus, number>> {
  const rows = await db
    .select({
      status: truckOrderCounts.status,
      n: sql<number>`sum(${truckOrderCounts.n})`.mapWith(Number),
    })
    .from(truckOrderCounts)
    .where(
      and(
        eq(truckOrderCounts.tenantId, caller.tenantId),
        scope.kind === 'subtree'
          ? inArray(truckOrderCounts.organisationId, visibleOrganisationIds(db, scope))
          : undefined,
        q.organisationId ? eq(truckOrderCounts.organisationId, q.organisationId) : undefined,
        sql`${truckOrderCounts.n} <> 0`,
      ),
    )
    .groupBy(truckOrderCounts.status);
  return new Map(rows.map((r) => [r.status, r.n]));
}

/** Whether the list asks for nothing the kept counts cannot answer: a status and an organisation at most. */
const countsKept = (q: OrderListQuery) =>
  !q.keyword && !q.mode && !q.productId && !q.orderType && !q.from && !q.to;

/** The total and the status tabs' counts of a list the kept counts answer (`countsKept`). */
function keptFigures(kept: Map<OrderStatus, number>, q: OrderListQuery, cap: number) {
  let total = 0;
  for (const [status, n] of kept) if (!q.status || status === q.status) total += n;
  return {
    total: Math.min(total, cap),
    totalCapped: total > cap,
    counts:
      q.page === 1
        ? Object.fromEntries(
            [...kept].filter(([, n]) => n > 0).map(([status, n]) => [status, Math.min(n, cap + 1)]),
          )
        : null,
    countCap: cap,
  };
}

/**
 * The list's page of rows under `condition`, newest first. The page's ids are found first, from the
 * index alone (tenant, status or organisation, time, id), and only its rows are then read whole: a page
 * deep in a list skips its earlier orders in the index rather than reading each of them.
 */
const pageRows = (
  db: DbOrTx,
  tenantId: number,
  condition: SQL | undefined,
  q: OrderListQuery,
  merged?: SQL,
) => {
  const pageIds =
    merged ??
    db
      .select({ id: truckOrders.id })
      .from(truckOrders)
      .where(condition)
      .orderBy(desc(truckOrders.createdAt), desc(truckOrders.id))
      .limit(q.limit)
      .offset((q.page - 1) * q.limit);
  return db
    .select(listColumns)
    .from(truckOrders)
    .where(and(eq(truckOrders.tenantId, tenantId), inArray(truckOrders.id, pageIds)))
    .orderBy(desc(truckOrders.createdAt), desc(truckOrders.id));
};

/** Subtrees of up to this many organisations page their orders by merging each one's ordered range. */
const MERGED_ORGANISATIONS = 50;

/**
 * A page's ids for a branch or agent of a few organisations: each organisation's orders in list order,
 * as far as the page reaches, merged (the database merges ordered reads without sorting). Through the
 * subtree's sub-select no index gives the organisations' orders in time order together, and a page deep
 * in a status read all of them and sorted them (205 ms at two million orders). Undefined for other scopes
 * and for subtrees of more organisations.
 */
async function mergedPageIds(
  db: DbOrTx,
  caller: Caller,
  scope: Awaited<ReturnType<typeof organisationScope>>,
  q: OrderListQuery,
): Promise<SQL | undefined> {
  if (scope.kind !== 'subtree' || scope.only !== undefined || q.organisationId) return undefined;
  const found = visibleOrganisationIds(db, scope);
  if (Array.isArray(found)) return undefined;
  const ids = (await found.limit(MERGED_ORGANISATIONS + 1)).map((o) => o.id);
  if (ids.length === 0 || ids.length > MERGED_ORGANISATIONS) return undefined;
  const reach = q.page * q.limit;
  const each = (organisationId: number) =>
    sql`(select ${truckOrders.id} as id, ${truckOrders.createdAt} as created_at from ${truckOrders}
          where ${listCondition(db, caller, scope, q, organisationId)}
          order by ${truckOrders.createdAt} desc, ${truckOrders.id} desc limit ${reach})`;
  return sql`(select m.id from (${sql.join(ids.map(each), sql` union all `)}) m
    order by m.created_at desc, m.id desc limit ${q.limit} offset ${(q.page - 1) * q.limit})`;
}

/**
 * How many orders match `condition` and, with the first page, each status of `unfiltered`: each
 * counted up to `cap + 1`, all in one statement (one round trip, and one plan on a distributed database).
 */
async function cappedCounts(
  db: DbOrTx,
  condition: SQL | undefined,
  unfiltered: SQL | undefined,
  withStatuses: boolean,
  cap: number,
) {
  const capped = (where: SQL | undefined) =>
    sql`(select count(*) from (select 1 from ${truckOrders} where ${where ?? sql`true`} limit ${cap + 1}) m)`;
  const statuses = withStatuses ? ORDER_STATUSES : [];
  const result = await db.execute(
    sql`select ${sql.join(
      [
        sql`${capped(condition)} as total`,
        ...statuses.map(
          (status, i) =>
            sql`${capped(and(unfiltered, eq(truckOrders.status, status)))} as ${sql.identifier(`s${i}`)}`,
        ),
      ],
      sql`, `,
    )}`,
  );
  const [row] = rowsOf<Record<string, string | number>>(result);
  return {
    total: Number(row?.total ?? 0),
    byStatus: withStatuses
      ? statuses.map((status, i) => [status, Number(row?.[`s${i}`] ?? 0)] as const)
      : null,
  };
}

/**
 * The total and (with the first page) the status counts of a filtered list. Most filters (a number
 * searched, a day) match a few orders: those are grouped by status in one read of at most `cap + 1`
 * rows, which gives every figure exactly. Only a filter matching more counts each figure on its own.
 */
async function countsUnder(
  db: DbOrTx,
  q: OrderListQuery,
  condition: SQL | undefined,
  unfiltered: SQL | undefined,
  cap: number,
) {
  const result = await db.execute(
    sql`select m.status, count(*)::int as n
          from (select ${truckOrders.status} as status from ${truckOrders} where ${unfiltered ?? sql`true`} limit ${cap + 1}) m
         group by m.status`,
  );
  const grouped = rowsOf<{ status: OrderStatus; n: number }>(result);
  const matched = grouped.reduce((sum, row) => sum + Number(row.n), 0);
  if (matched > cap) return cappedCounts(db, condition, unfiltered, q.page === 1, cap);
  const total = grouped.reduce(
    (sum, row) => (!q.status || row.status === q.status ? sum + Number(row.n) : sum),
    0,
  );
  return {
    total,
    byStatus: q.page === 1 ? grouped.map((row) => [row.status, Number(row.n)] as const) : null,
  };
}

/**
 * A page of the order list. The total is exact up to `cap`; beyond it, it is `cap` with `totalCapped`.
 * The status tabs' counts, with the first page only, are exact up to `cap`; `cap + 1` means more.
 * Filtered by status or organisation alone (the list as it opens, and its tabs), every count comes
 * from the kept counts; under any other filter they are counted, stopping at `cap + 1`.
 */
export async function listOrders(db: DbOrTx, caller: Caller, q: OrderListQuery, cap = ORDER_COUNT_CAP) {
  const scope = await organisationScope(db, caller);
  const condition = listCondition(db, caller, scope, q);
  const page = pageRows(db, caller.tenantId, condition, q, await mergedPageIds(db, caller, scope, q));
  if (countsKept(q)) {
    const [rows, kept] = await Promise.all([page, keptCounts(db, caller, scope, q)]);
    return { rows, ...keptFigures(kept, q, cap) };
  }
  const unfiltered = listCondition(db, caller, scope, { ...q, status: undefined });
  const [rows, { total, byStatus }] = await Promise.all([
    page,
    countsUnder(db, q, condition, unfiltered, cap),
  ]);
  return {
    rows,
    total: Math.min(total, cap),
    totalCapped: total > cap,
    counts: byStatus ? Object.fromEntries(byStatus.filter(([, n]) => n > 0)) : null,
    countCap: cap,
  };
}

/**
 * The export's rows as the caller may see them: the list's filter, newest first, a keyset page at a
 * time (the download centre streams them into the file, however many there are).
 */
export async function orderExportRows(
  db: DbOrTx,
  caller: OrderViewer,
  q: Omit<OrderListQuery, 'page' | 'limit'>,
) {
  const scope = await organisationScope(db, caller);
  const condition = listCondition(db, caller, scope, { ...q, page: 1, limit: 1 });
  return {
    count: (cap: number) => cappedCount(db, truckOrders, condition, cap),
    async *pages(size: number) {
      const raw = keysetPages<OrderListRow>(size, (after, limit) =>
        db
          .select(listColumns)
          .from(truckOrders)
          .where(and(condition, after ? olderThanRow(truckOrders, caller.tenantId, after.id) : undefined))
          .orderBy(desc(truckOrders.createdAt), desc(truckOrders.id))
          .limit(limit),
      );
      for await (const page of raw) yield page.map((o) => listItemForCaller(o, caller));
    },
  };
}

type OrderListPage = Awaited<ReturnType<typeof buildListPage>>;

function buildListPage(
  caller: OrderViewer,
  q: OrderListQuery,
  result: Awaited<ReturnType<typeof listOrders>>,
) {
  const { rows, total, totalCapped, counts, countCap } = result;
  return {
    list: rows.map((o) => listItemForCaller(o, caller)),
    total,
    totalCapped,
    counts,
    countCap,
    page: q.page,
    limit: q.limit,
  };
}

/** A page's rows as its fingerprint names them: each row's id and version, in the list's order. */
const rowVersionsOf = (rows: readonly { id: number; rowVersion: string }[]) =>
  rows.map((row) => `${row.id}:${row.rowVersion}`).join(',');

/**
 * What a page of the list is built from: its rows' ids and versions, the total and the counts. Two
 * reads with the same fingerprint give the same page to the same viewer.
 */
function fingerprintOf(
  rowVersions: string,
  figures: Pick<OrderListPage, 'total' | 'totalCapped' | 'counts'>,
): string {
  const counts = Object.entries(figures.counts ?? {}).sort(([a], [b]) => (a < b ? -1 : 1));
  return `${figures.total}|${figures.totalCapped}|${figures.counts ? JSON.stringify(counts) : '-'}|${rowVersions}`;
}

/**
 * The statement reading the fingerprint of the page the list would build now: the page's ids and
 * versions and the kept counts, in one round trip, without the rows' other columns. One statement per
 * shape of list (the caller's scope, and whether it filters by status or organisation), prepared once
 * per connection: planning it each time had cost the database more than running it.
 */
function fingerprintStatement(
  db: DbOrTx,
  subtree: boolean,
  byStatus: boolean,
  byOrganisation: boolean,
  limit: number,
) {
  // The page size is written into the statement, not passed: with it a parameter, the database never
  // settles on the prepared plan (it prices an unknown limit as a tenth of the table) and plans anew
  // on every call. There are five sizes (PAGE_SIZES).
  if (!(PAGE_SIZES as readonly number[]).includes(limit)) throw new Error(`not a page size: ${limit}`);
  const tenantId = sql.placeholder('tenantId');
  const filters = (table: typeof truckOrders | typeof truckOrderCounts) =>
    and(
      eq(table.tenantId, tenantId),
      subtree ? inArray(table.organisationId, visibleOrganisationIdsPrepared(db)) : undefined,
      byStatus ? eq(table.status, sql.placeholder('status')) : undefined,
      byOrganisation ? eq(table.organisationId, sql.placeholder('organisationId')) : undefined,
    );
  const query = db
    .execute(sql`
    select
      (select coalesce(string_agg(p.id || ':' || p.version, ',' order by p.created_at desc, p.id desc), '')
         from (select ${truckOrders.id} as id, ${truckOrders.createdAt} as created_at, ${rowVersionColumn} as version
                 from ${truckOrders}
                where ${filters(truckOrders)}
                order by ${truckOrders.createdAt} desc, ${truckOrders.id} desc
                limit ${sql.raw(String(limit))}) p) as versions,
      (select coalesce(json_object_agg(c.status, c.n), '{}')
         from (select ${truckOrderCounts.status} as status, sum(${truckOrderCounts.n}) as n
                 from ${truckOrderCounts}
                where ${and(filters(truckOrderCounts), sql`${truckOrderCounts.n} <> 0`)}
                group by ${truckOrderCounts.status}) c) as counts`)
    .getQuery();
  const name = `truck_order_list_fingerprint_${Number(subtree)}${Number(byStatus)}${Number(byOrganisation)}_${limit}`;
  return db._.session.prepareQuery(query, undefined, name, false);
}

/** A handle's fingerprint statements, one per shape of list, built as each shape is first asked for. */
const fingerprintStatements = perHandle(
  (_db: DbOrTx) => new Map<string, ReturnType<typeof fingerprintStatement>>(),
);

/**
 * What the list would show now, as far as its fingerprint goes (`fingerprintStatement`): the page's
 * ids and versions, and the total and counts, which a page built now takes as they are.
 */
async function currentState(
  db: DbOrTx,
  caller: Caller,
  scope: Awaited<ReturnType<typeof organisationScope>>,
  q: OrderListQuery,
) {
  // A scope of one organisation is that organisation's filter: the statement reads its index range.
  const only = scope.kind === 'subtree' ? scope.only : undefined;
  const alone = only !== undefined && (q.organisationId === undefined || q.organisationId === only);
  const subtree = scope.kind === 'subtree' && !alone;
  const organisationId = alone ? only : q.organisationId;
  const shape = `${subtree}|${Boolean(q.status)}|${Boolean(organisationId)}|${q.limit}`;
  const statements = fingerprintStatements(db);
  let statement = statements.get(shape);
  if (!statement) {
    statement = fingerprintStatement(db, subtree, Boolean(q.status), Boolean(organisationId), q.limit);
    statements.set(shape, statement);
  }
  const result = await statement.execute({
    tenantId: caller.tenantId,
    ...(subtree && scope.kind === 'subtree'
      ? scopeParamsOf(scope)
      : { scopeStart: null, scopeEnd: null, scopePattern: null }),
    status: q.status ?? null,
    organisationId: organisationId ?? null,
  });
  const [row] = rowsOf<{ versions: string; counts: Record<string, number | string> }>(result);
  if (!row) throw new Error('the list fingerprint answered no row');
  const kept = new Map(Object.entries(row.counts).map(([status, n]) => [status as OrderStatus, Number(n)]));
  return { rowVersions: row.versions, figures: keptFigures(kept, q, ORDER_COUNT_CAP) };
}

/**
 * First pages of the list as it opens (filtered by status and organisation at most: what every order
 * page shows first and polls), kept with their fingerprint per viewer, page size and filter. A kept
 * page is served only after the database gives the same fingerprint again, read in this call, so it is
 * never older than the orders: no change needs to be announced, on this process or another. The check
 * reads ids and versions and a few counts, where building the page reads every column of its rows.
 */
const keptPages = new ShortCache<string, { fingerprint: string; page: OrderListPage }>(60_000, 500);

/** The viewer's part of a kept page's key: what `listItemForCaller` and the list's scope depend on. */
const viewerKey = (db: DbOrTx, caller: OrderViewer) =>
  `${handleKey(db)}|${caller.tenantId}|${caller.identity}|${caller.organisationId}|${contentKey(caller.grants)}`;

/** The order list's page as the caller may see it, with the paging it was asked for. */
export async function listOrdersFor(db: DbOrTx, caller: OrderViewer, q: OrderListQuery) {
  if (!countsKept(q) || q.page !== 1) return buildListPage(caller, q, await listOrders(db, caller, q));
  const key = `${viewerKey(db, caller)}|${q.limit}|${q.status ?? ''}|${q.organisationId ?? ''}`;
  const scope = await organisationScope(db, caller);
  const now = await currentState(db, caller, scope, q);
  const kept = keptPages.get(key);
  if (kept?.fingerprint === fingerprintOf(now.rowVersions, now.figures)) return kept.page;
  // Built from the counts just read and the rows read now; kept under what it was built from.
  const rows = await pageRows(
    db,
    caller.tenantId,
    listCondition(db, caller, scope, q),
    q,
    await mergedPageIds(db, caller, scope, q),
  );
  const page = answerOnce(buildListPage(caller, q, { rows, ...now.figures }));
  keptPages.set(key, { fingerprint: fingerprintOf(rowVersionsOf(rows), now.figures), page });
  return page;
}
