import type { staffListQuery } from '@freight/contracts/roles';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.ts';
import {
  countStaffUsers,
  listStaffUsers,
  type StaffFilter,
  type StaffUserRow,
  staffUserRows,
} from '../auth/users.ts';
import { rolesOfUsers, userIdsHoldingRole } from '../roles/service.ts';

export type StaffQuery = Omit<z.infer<typeof staffListQuery>, 'page' | 'limit'>;

/** The list's filter in the accounts' terms: a role becomes the users holding it. */
async function staffFilter(db: DbOrTx, tenantId: number, q: StaffQuery): Promise<StaffFilter> {
  return {
    keyword: q.keyword,
    enabled: q.enabled,
    userIds: q.roleId ? await userIdsHoldingRole(db, tenantId, q.roleId) : undefined,
  };
}

/** Staff accounts with the roles each holds. */
async function withRoles(db: DbOrTx, tenantId: number, rows: StaffUserRow[]) {
  const rolesByUser = await rolesOfUsers(
    db,
    tenantId,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, roles: rolesByUser.get(r.id) ?? [] }));
}

export type StaffMember = Awaited<ReturnType<typeof withRoles>>[number];

/** A page of the staff list, each with its roles, and the list's total. */
export async function listStaff(
  db: DbOrTx,
  tenantId: number,
  q: StaffQuery,
  page: { page: number; limit: number },
) {
  const filter = await staffFilter(db, tenantId, q);
  const [rows, total] = await Promise.all([
    listStaffUsers(db, tenantId, filter, page),
    countStaffUsers(db, tenantId, filter),
  ]);
  return { list: await withRoles(db, tenantId, rows), total };
}

/** The export's staff: the list's filter and order, a keyset page at a time with their roles. */
export async function staffExportRows(db: DbOrTx, tenantId: number, q: StaffQuery) {
  const rows = staffUserRows(db, tenantId, await staffFilter(db, tenantId, q));
  return {
    count: rows.count,
    async *pages(size: number) {
      for await (const page of rows.pages(size)) yield await withRoles(db, tenantId, page);
    },
  };
}
