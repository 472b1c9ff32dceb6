import { and, count, eq, gte, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import type { RequestUser } from '../../plugins/context.ts';
import { organisationScope, visibleOrganisationIds } from '../customers/service.ts';
import { expressWaybills } from './schema.ts';

type Caller = Pick<RequestUser, 'tenantId' | 'identity' | 'organisationId'>;

/**
 * Waybills in the caller's scope for the dashboards (staff: the tenant; others their organisation and
 * those below it): how many were booked each day (UTC) since a moment, and how many of each status
 * there are now, with what they come to.
 */
export async function waybillStats(db: DbOrTx, caller: Caller, since: Date) {
  const scope = await organisationScope(db, caller);
  const visible = and(
    eq(expressWaybills.tenantId, caller.tenantId),
    scope.kind === 'subtree'
      ? inArray(expressWaybills.organisationId, visibleOrganisationIds(db, scope))
      : undefined,
  );
  const [days, statuses] = await Promise.all([
    db
      .select({
        day: sql<string>`to_char(${expressWaybills.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`,
        n: count(),
      })
      .from(expressWaybills)
      .where(and(visible, gte(expressWaybills.createdAt, since)))
      .groupBy(sql`1`),
    db
      .select({
        status: expressWaybills.status,
        n: count(),
        total: sql<string>`coalesce(sum(${expressWaybills.total}), 0)::text`,
      })
      .from(expressWaybills)
      .where(visible)
      .groupBy(expressWaybills.status),
  ]);
  return { days, statuses };
}
