import {
  CHILD_TYPES,
  customerListQuery,
  formatPercentBp,
  invitationCreateBody,
  invitationCreatedView,
  invitationsView,
  organisationInfoView,
  organisationListView,
  organisationSaveBody,
  organisationStatusBody,
  organisationUserSaveBody,
  organisationUsersView,
  parentOptionsView,
  parsePercentBp,
  priceLevelDeleteBody,
  priceLevelSaveBody,
  priceLevelsView,
} from '@freight/contracts/customers';
import { exportResponse } from '@freight/contracts/downloads';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import { emptyResponse, okResponse } from '@freight/contracts/responses';
import { idBody, savedIdView } from '@freight/contracts/roles';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badField, forbidden, notFound } from '../../lib/errors.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { findUser } from '../auth/service.ts';
import { countUsersByOrganisation, setUserEnabled, usersOfOrganisation } from '../auth/users.ts';
import { answerExport } from '../downloads/runner.ts';
import { registerRecordAccess } from '../uploads/service.ts';
import { customerExport } from './export.ts';
import { deletePriceLevel, priceLevelsOf, savePriceLevel } from './price-levels.ts';
import {
  addOrganisation,
  CUSTOMER_LIST_PAGES,
  canSeeOrganisation,
  createInvitationCode,
  findOrganisation,
  listInvitationCodes,
  listOrganisations,
  mayListOrganisations,
  type OrganisationRow,
  organisationAccounts,
  organisationScope,
  parentOptions,
  revokeInvitationCode,
  saveOrganisationUser,
  setOrganisationStatus,
  updateOrganisation,
} from './service.ts';

const ANY_CUSTOMER_PAGE = [...new Set(Object.values(CUSTOMER_LIST_PAGES).flatMap((p) => Object.values(p)))];
const SAVE_KEYS = ['branch:save', 'customer:save'];
/** Setting what an organisation pays: the customer pages' price button, or staff's `/setPrice` page. */
const PRICE_KEYS = ['customer:price', '/setPrice'];
const STATUS_KEYS = ['branch:status', 'customer:status'];

const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  /** The organisation, if the caller's scope covers it; 404 otherwise, so ids of others reveal nothing. */
  async function visibleOrganisation(user: RequestUser, id: number): Promise<OrganisationRow> {
    const scope = await organisationScope(db, user);
    const org = await findOrganisation(db, user.tenantId, id);
    if (!org || !(await canSeeOrganisation(db, scope, id))) throw notFound();
    return org;
  }

  // A registration's licence loads for whoever may open that organisation on a customer page.
  registerRecordAccess('organisation', async (db, user, id) => {
    if (!ANY_CUSTOMER_PAGE.some((page) => user.grants.has(page)) && user.organisationId !== id) return false;
    return canSeeOrganisation(db, await organisationScope(db, user), id);
  });

  /** An organisation the caller manages: one below its own (staff manage all). */
  async function managedOrganisation(user: RequestUser, id: number): Promise<OrganisationRow> {
    const org = await visibleOrganisation(user, id);
    if (user.identity !== 'employee' && org.id === user.organisationId) throw forbidden();
    return org;
  }

  const listRows = async (request: FastifyRequest, query: z.infer<typeof customerListQuery>) => {
    const me = currentUser(request);
    if (!mayListOrganisations(me, query)) throw forbidden();
    const scope = await organisationScope(db, me);
    const { page, limit, line, kind, keyword, enabled, parentId } = query;
    const { list, total } = await listOrganisations(
      db,
      scope,
      { kind, keyword, enabled, parentId },
      { page, limit },
    );
    const ids = list.map((o) => o.id);
    const [accounts, userCounts] = await Promise.all([
      organisationAccounts().of(db, me, ids, line),
      countUsersByOrganisation(db, me.tenantId, ids),
    ]);
    const rows = list.map((o) => {
      const a = accounts.get(o.id);
      return {
        ...o,
        userCount: userCounts.get(o.id) ?? 0,
        account: a
          ? {
              id: a.id,
              status: a.status,
              balance: formatMoney(a.balance),
              creditLimit: formatMoney(a.creditLimit),
              frozen: formatMoney(a.frozen),
              deposit: formatMoney(a.deposit),
              available: formatMoney(a.available),
              actions: a.actions,
            }
          : null,
      };
    });
    return { list: rows, total, page, limit };
  };

  app.post(
    '/admin/customer/list',
    {
      config: { permission: ANY_CUSTOMER_PAGE },
      schema: {
        tags: ['customers'],
        body: customerListQuery,
        response: { 200: okResponse(organisationListView) },
      },
    },
    async (request) => listRows(request, request.body),
  );

  app.post(
    '/admin/customer/export',
    {
      config: { permission: 'customer:export', raw: true },
      schema: { tags: ['customers'], body: customerListQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, customerExport, request.body),
  );

  /** Where the caller may put a new organisation of a type: visible, enabled parents of an allowed type. */
  app.post(
    '/admin/customer/parentOptions',
    {
      config: { permission: ANY_CUSTOMER_PAGE },
      schema: {
        tags: ['customers'],
        body: z.object({ type: z.enum(['branch', 'agent', 'customer']) }),
        response: { 200: okResponse(parentOptionsView) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const scope = await organisationScope(db, me);
      const parentTypes = (['branch', 'agent'] as const).filter((p) =>
        CHILD_TYPES[p].includes(request.body.type),
      );
      const list = await parentOptions(db, scope, parentTypes);
      return {
        list,
        platformAllowed: me.identity === 'employee' && CHILD_TYPES.platform.includes(request.body.type),
      };
    },
  );

  app.post(
    '/admin/customer/info',
    {
      config: { permission: ANY_CUSTOMER_PAGE },
      schema: { tags: ['customers'], body: idBody, response: { 200: okResponse(organisationInfoView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const org = await visibleOrganisation(me, request.body.id);
      const parent = org.parentId ? await findOrganisation(db, me.tenantId, org.parentId) : null;
      return { ...org, parentName: parent?.name ?? null, parentType: parent?.type ?? null };
    },
  );

  app.post(
    '/admin/customer/save',
    {
      config: { permission: SAVE_KEYS, audit: 'customer.save' },
      schema: { tags: ['customers'], body: organisationSaveBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const body = request.body;
      if (body.id) {
        const org = await managedOrganisation(me, body.id);
        if (org.type !== body.type) throw badField('type', 'customers.cannotChangeType');
        const { name, contactName, contactEmail, contactPhone } = body;
        await updateOrganisation(db, me.tenantId, org.id, { name, contactName, contactEmail, contactPhone });
        request.auditTarget = `organisation:${org.id}`;
        return { id: org.id };
      }
      const { id } = await addOrganisation(db, me, body);
      request.auditTarget = `organisation:${id}`;
      return { id };
    },
  );

  app.post(
    '/admin/customer/setStatus',
    {
      config: { permission: STATUS_KEYS, audit: 'customer.status' },
      schema: { tags: ['customers'], body: organisationStatusBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      const me = currentUser(request);
      const org = await managedOrganisation(me, request.body.id);
      request.auditTarget = `organisation:${org.id}`;
      await setOrganisationStatus(db, me.tenantId, org.id, request.body.enabled);
      return null;
    },
  );

  /* ----- the users of an organisation ----- */

  app.post(
    '/admin/customer/users',
    {
      config: { permission: ANY_CUSTOMER_PAGE },
      schema: { tags: ['customers'], body: idBody, response: { 200: okResponse(organisationUsersView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const org = await visibleOrganisation(me, request.body.id);
      return { list: await usersOfOrganisation(db, me.tenantId, org.id) };
    },
  );

  app.post(
    '/admin/customer/userSave',
    {
      config: { permission: SAVE_KEYS, audit: 'customer.userSave' },
      schema: {
        tags: ['customers'],
        body: organisationUserSaveBody,
        response: { 200: okResponse(savedIdView) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const body = request.body;
      const org = await managedOrganisation(me, body.organisationId);
      const id = await saveOrganisationUser(db, me.tenantId, org, body);
      request.auditTarget = `user:${id}`;
      return { id };
    },
  );

  app.post(
    '/admin/customer/userStatus',
    {
      config: { permission: STATUS_KEYS, audit: 'customer.userStatus' },
      schema: {
        tags: ['customers'],
        body: z.object({ id: z.number().int().positive(), enabled: z.boolean() }),
        response: { 200: emptyResponse },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const user = await findUser(db, me.tenantId, request.body.id);
      if (!user?.organisationId) throw notFound();
      await managedOrganisation(me, user.organisationId);
      request.auditTarget = `user:${user.id}`;
      await setUserEnabled(db, me.tenantId, user.id, request.body.enabled);
      return null;
    },
  );

  /* ----- invitation codes ----- */

  app.post(
    '/admin/customer/invitations',
    {
      config: { permission: 'customer:invite' },
      schema: { tags: ['customers'], body: idBody, response: { 200: okResponse(invitationsView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const org = await visibleOrganisation(me, request.body.id);
      const rows = await listInvitationCodes(db, me.tenantId, org.id);
      return {
        list: rows.map((r) => ({
          id: r.id,
          code: r.code,
          expiresAt: r.expiresAt,
          revokedAt: r.revokedAt,
          createdAt: r.createdAt,
          live: !r.revokedAt && (!r.expiresAt || r.expiresAt > new Date()),
        })),
      };
    },
  );

  app.post(
    '/admin/customer/invitationCreate',
    {
      config: { permission: 'customer:invite', audit: 'customer.invitationCreate' },
      schema: {
        tags: ['customers'],
        body: invitationCreateBody,
        response: { 200: okResponse(invitationCreatedView) },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const org = await visibleOrganisation(me, request.body.organisationId);
      // Only organisations that can have customers under them hand out codes.
      if (org.type === 'customer') throw badField('organisationId', 'customers.parentNotAllowed');
      const days = request.body.expiresInDays;
      const code = await createInvitationCode(db, me.tenantId, org.id, {
        createdBy: me.id,
        expiresAt: days ? new Date(Date.now() + days * 86_400_000) : undefined,
      });
      request.auditTarget = `organisation:${org.id}`;
      return { code };
    },
  );

  app.post(
    '/admin/customer/invitationRevoke',
    {
      config: { permission: 'customer:invite', audit: 'customer.invitationRevoke' },
      schema: {
        tags: ['customers'],
        body: z.object({ organisationId: z.number().int().positive(), id: z.number().int().positive() }),
        response: { 200: emptyResponse },
      },
    },
    async (request) => {
      const me = currentUser(request);
      const org = await visibleOrganisation(me, request.body.organisationId);
      if (!(await revokeInvitationCode(db, me.tenantId, org.id, request.body.id))) throw notFound();
      return null;
    },
  );

  /* ----- price levels ----- */

  app.post(
    '/admin/customer/priceLevels',
    {
      config: { permission: [...ANY_CUSTOMER_PAGE, '/setPrice'] },
      schema: { tags: ['customers'], body: idBody, response: { 200: okResponse(priceLevelsView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const org = await visibleOrganisation(me, request.body.id);
      const rows = await priceLevelsOf(db, me.tenantId, org.id);
      return {
        list: rows.map((r) => ({
          line: r.line,
          productKey: r.productKey,
          markupPercent: formatPercentBp(r.markupPercentBp),
          markupFixed: formatMoney(r.markupFixedCents),
          updatedAt: r.updatedAt,
        })),
      };
    },
  );

  app.post(
    '/admin/customer/priceLevelSave',
    {
      config: { permission: PRICE_KEYS, audit: 'customer.priceLevel' },
      schema: { tags: ['customers'], body: priceLevelSaveBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      const me = currentUser(request);
      // A parent sets what its children pay; nobody sets their own markup.
      const org = await managedOrganisation(me, request.body.organisationId);
      await savePriceLevel(db, {
        tenantId: me.tenantId,
        organisationId: org.id,
        line: request.body.line,
        productKey: request.body.productKey,
        markupPercentBp: parsePercentBp(request.body.markupPercent),
        markupFixedCents: parseMoney(request.body.markupFixed),
        updatedBy: me.id,
      });
      request.auditTarget = `organisation:${org.id}`;
      return null;
    },
  );

  /** A product's or channel's own markup removed: the line's default prices it again. */
  app.post(
    '/admin/customer/priceLevelDelete',
    {
      config: { permission: PRICE_KEYS, audit: 'customer.priceLevelDelete' },
      schema: { tags: ['customers'], body: priceLevelDeleteBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      const me = currentUser(request);
      const org = await managedOrganisation(me, request.body.organisationId);
      await deletePriceLevel(db, { ...request.body, tenantId: me.tenantId, organisationId: org.id });
      request.auditTarget = `organisation:${org.id}`;
      return null;
    },
  );
};

export default routes;
