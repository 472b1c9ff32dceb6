import { formatMoney } from '@freight/contracts/money';
import type { DbOrTx } from '../../db/client.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { available, ensureAccount, netPaidPerDay } from '../accounts/service.ts';
import { countUnpaidBills } from '../bounce-bills/service.ts';
import { organisationScope, visibleOrganisationIds } from '../customers/service.ts';
import { waybillStats } from '../express-waybills/stats.ts';
import { waitingCounts } from '../recharge/service.ts';
import { orderStats } from '../truck-orders/service.ts';
import { countOpenWorkOrders } from '../work-orders/service.ts';

type Caller = Pick<RequestUser, 'id' | 'tenantId' | 'identity' | 'organisationId'>;

// The dashboards gather counts of several modules; they live here so no module depends on those that
// depend on it (work orders and bounce bills read orders). Their figures over days and statuses read
// `reader` (the replica when one is configured); the caller's own balance and the waiting reviews,
// which the caller may have just changed, read the primary.
/**
 * The truck dashboards for the caller's scope: today, this month and the last 30 days by day, the
 * orders of each status, open work orders, unpaid bills, and the caller's own balance.
 */
export async function orderDashboard(db: DbOrTx, caller: Caller, now: Date, reader: DbOrTx = db) {
  const today = now.toISOString().slice(0, 10);
  const monthStart = `${today.slice(0, 7)}-01`;
  const thirtyAgo = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000);
  const since = new Date(Math.min(thirtyAgo.getTime(), Date.parse(`${monthStart}T00:00:00Z`)));
  const [{ days, statuses }, openWorkOrders, unpaidBills] = await Promise.all([
    orderStats(reader, caller, since),
    countOpenWorkOrders(reader, caller),
    countUnpaidBills(reader, caller),
  ]);
  const sum = (rows: typeof days) => ({
    orders: rows.reduce((n, r) => n + r.n, 0),
    paid: formatMoney(rows.reduce((n, r) => n + BigInt(r.paid), 0n)),
  });
  const series = Array.from({ length: 30 }, (_, i) => {
    const day = new Date(thirtyAgo.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    return { day, ...sum(days.filter((r) => r.day === day)) };
  });
  const account =
    caller.organisationId !== null
      ? await ensureAccount(db, caller.tenantId, caller.organisationId, 'truck')
      : null;
  return {
    today: sum(days.filter((r) => r.day === today)),
    month: sum(days.filter((r) => r.day >= monthStart)),
    series,
    statuses: Object.fromEntries(statuses.map((s) => [s.status, s.n])),
    waitingReview: statuses.find((s) => s.status === 'pending_review')?.n ?? 0,
    unpaid: statuses.find((s) => s.status === 'unpaid')?.n ?? 0,
    openWorkOrders,
    unpaidBills,
    balance: account
      ? { balance: formatMoney(account.balance), available: formatMoney(available(account)) }
      : null,
  };
}

/** The first day of the last 30 (today included), and the earliest moment the figures need. */
function periods(now: Date) {
  const today = now.toISOString().slice(0, 10);
  const monthStart = `${today.slice(0, 7)}-01`;
  const thirtyAgo = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * 86_400_000);
  const since = new Date(Math.min(thirtyAgo.getTime(), Date.parse(`${monthStart}T00:00:00Z`)));
  const days = Array.from({ length: 30 }, (_, i) =>
    new Date(thirtyAgo.getTime() + i * 86_400_000).toISOString().slice(0, 10),
  );
  return { today, monthStart, since, days };
}

/**
 * The express dashboards for the caller's scope (staff: the tenant; a branch or agent: its subtree; a
 * customer: itself): waybills booked and revenue (what customers paid less refunds) today, this month
 * and each of the last 30 days, the waybills of each status now, exceptions and unpaid waybills, the
 * express recharges waiting for review (for a caller who reviews them) and the caller's own balance.
 */
export async function expressDashboard(
  db: DbOrTx,
  caller: Caller,
  now: Date,
  reviewsRecharges: boolean,
  reader: DbOrTx = db,
) {
  const { today, monthStart, since, days } = periods(now);
  const scope = await organisationScope(reader, caller);
  const [waybills, paid, waiting, account] = await Promise.all([
    waybillStats(reader, caller, since),
    netPaidPerDay(
      reader,
      caller.tenantId,
      scope.kind === 'subtree' ? visibleOrganisationIds(reader, scope) : null,
      'express',
      since,
    ),
    reviewsRecharges ? waitingCounts(db, caller.tenantId, ['express']) : null,
    caller.organisationId !== null
      ? ensureAccount(db, caller.tenantId, caller.organisationId, 'express')
      : null,
  ]);
  const totals = (wanted: (day: string) => boolean) => ({
    waybills: waybills.days.filter((r) => wanted(r.day)).reduce((n, r) => n + r.n, 0),
    revenue: formatMoney(paid.filter((r) => wanted(r.day)).reduce((n, r) => n + r.net, 0n)),
  });
  const ofStatus = (status: string) => waybills.statuses.find((s) => s.status === status);
  return {
    today: totals((day) => day === today),
    month: totals((day) => day >= monthStart),
    series: days.map((day) => ({ day, ...totals((d) => d === day) })),
    statuses: Object.fromEntries(waybills.statuses.map((s) => [s.status, s.n])),
    exceptions: ofStatus('exception')?.n ?? 0,
    unpaid: ofStatus('unpaid')?.n ?? 0,
    unpaidAmount: formatMoney(BigInt(ofStatus('unpaid')?.total ?? '0')),
    waitingRecharges: waiting ? waiting.express : null,
    balance: account
      ? { balance: formatMoney(account.balance), available: formatMoney(available(account)) }
      : null,
  };
}
