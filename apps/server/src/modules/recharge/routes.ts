import { BUSINESS_LINES, type BusinessLine } from '@freight/contracts/accounts';
import { type Language, ResultCode } from '@freight/contracts/api';
import { exportResponse } from '@freight/contracts/downloads';
import { translate } from '@freight/contracts/messages';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import {
  type RechargeAction,
  receivingAccountBody,
  receivingAccountsView,
  rechargeInfoView,
  rechargeListQuery,
  rechargeListResponse,
  rechargeReviewBody,
  rechargeSubmitBody,
  rechargeView,
  rechargeWaitingView,
} from '@freight/contracts/recharge';
import { emptyResponse, okResponse } from '@freight/contracts/responses';
import { idBody, savedIdView } from '@freight/contracts/roles';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { canSeeOrganisation, organisationNames, organisationScope } from '../customers/service.ts';
import { answerExport } from '../downloads/runner.ts';
import { registerRecordAccess } from '../uploads/service.ts';
import { rechargeExport } from './export.ts';
import {
  deleteReceivingAccount,
  findRecharge,
  linesListable,
  listReceivingAccounts,
  listRecharges,
  mayReview,
  presentRecharge,
  RECHARGE_LINE_LABEL,
  RECHARGE_LIST_PAGES,
  RECHARGE_REVIEW_KEY,
  type ReceivingAccountRow,
  type RechargeRow,
  reviewRecharge,
  reviewsOf,
  saveReceivingAccount,
  submitRecharge,
  waitingCounts,
} from './service.ts';

/** The page that submits a recharge on each line (SPEC section 2: /recharge, /expressrecharge). */
const SUBMIT_PAGE: Record<BusinessLine, string> = { truck: '/recharge', express: '/expressrecharge' };
const ANY_LIST_PAGE = Object.values(RECHARGE_LIST_PAGES).flat();
/** Staff keep the receiving accounts from the recharge management pages. */
const MANAGE_PAGES = ['/rechargeMGT', '/deliveryRechargeMGT'];

const money = (cents: bigint | null) => (cents === null ? null : formatMoney(cents));

const presentReceivingAccount = (r: ReceivingAccountRow) => ({
  id: r.id,
  currency: r.currency,
  bankName: r.bankName,
  bankNameEn: r.bankNameEn,
  accountName: r.accountName,
  accountNameEn: r.accountNameEn,
  accountNumber: r.accountNumber,
  enabled: r.enabled,
});

/**
 * Recharges (SPEC sections 3, 4): customers, agents and branches submit top-ups of their own account;
 * staff keep the receiving accounts and review. Every rule is in service.ts.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  /**
   * A recharge the caller may see, or 404 (another tenant's or another subtree's looks unknown). Review
   * calls skip the line's pages: there the line's review key decides, with a 401 that names the line.
   */
  async function visibleRecharge(user: RequestUser, id: number, checkLine = true): Promise<RechargeRow> {
    const row = await findRecharge(db, user.tenantId, id);
    if (!row || (checkLine && !linesListable(user).includes(row.line))) throw notFound();
    if (!(await canSeeOrganisation(db, await organisationScope(db, user), row.organisationId)))
      throw notFound();
    return row;
  }

  // A payment screenshot loads for whoever may list the recharge or review its line.
  registerRecordAccess('recharge', async (db, user, id) => {
    const row = await findRecharge(db, user.tenantId, id);
    if (!row || !(linesListable(user).includes(row.line) || mayReview(user, row.line))) return false;
    return canSeeOrganisation(db, await organisationScope(db, user), row.organisationId);
  });

  function requireReviewer(user: RequestUser, line: BusinessLine, language: Language) {
    if (!mayReview(user, line))
      throw new AppError(ResultCode.Forbidden, 'recharge.noReviewGrant', {
        line: translate(language, RECHARGE_LINE_LABEL[line]),
      });
  }

  function requireStaff(user: RequestUser) {
    if (user.identity !== 'employee') throw forbidden();
  }

  /* ----- receiving accounts ----- */

  const enabledReceivingAccounts = async (request: { tenant: { id: number } }) => ({
    list: (await listReceivingAccounts(db, request.tenant.id, true)).map(presentReceivingAccount),
  });
  app.post(
    '/admin/recharge/receivingAccounts',
    { schema: { tags: ['recharge'], response: { 200: okResponse(receivingAccountsView) } } },
    enabledReceivingAccounts,
  );
  // SPEC section 7 names this call; it answers the accounts a customer may pay into.
  app.post(
    '/admin/admin/getAdminAccount',
    { schema: { tags: ['recharge'], response: { 200: okResponse(receivingAccountsView) } } },
    enabledReceivingAccounts,
  );

  app.post(
    '/admin/recharge/receivingAccountsAll',
    {
      config: { permission: MANAGE_PAGES },
      schema: { tags: ['recharge'], response: { 200: okResponse(receivingAccountsView) } },
    },
    async (request) => {
      requireStaff(currentUser(request));
      return {
        list: (await listReceivingAccounts(db, request.tenant.id, false)).map(presentReceivingAccount),
      };
    },
  );

  app.post(
    '/admin/recharge/receivingAccount/save',
    {
      config: { permission: MANAGE_PAGES, audit: 'recharge.receivingAccount.save' },
      schema: { tags: ['recharge'], body: receivingAccountBody, response: { 200: okResponse(savedIdView) } },
    },
    async (request) => {
      requireStaff(currentUser(request));
      const id = await saveReceivingAccount(db, request.tenant.id, request.body);
      if (id === null) throw notFound();
      request.auditTarget = `receivingAccount:${id}`;
      return { id };
    },
  );

  app.post(
    '/admin/recharge/receivingAccount/delete',
    {
      config: { permission: MANAGE_PAGES, audit: 'recharge.receivingAccount.delete' },
      schema: { tags: ['recharge'], body: idBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      requireStaff(currentUser(request));
      request.auditTarget = `receivingAccount:${request.body.id}`;
      await deleteReceivingAccount(db, request.tenant.id, request.body.id);
      return null;
    },
  );

  /* ----- submit ----- */

  app.post(
    '/admin/recharge/submit',
    {
      config: { permission: Object.values(SUBMIT_PAGE), audit: 'recharge.submit' },
      schema: { tags: ['recharge'], body: rechargeSubmitBody, response: { 200: okResponse(rechargeView) } },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const { line } = request.body;
      if (!me.grants.has(SUBMIT_PAGE[line]))
        throw new AppError(ResultCode.Forbidden, 'recharge.lineNotAllowed', {
          line: translate(request.language, RECHARGE_LINE_LABEL[line]),
        });
      // Staff have no organisation, hence no account to top up.
      if (!me.organisationId) throw conflict('recharge.staffCannotSubmit');
      const row = await submitRecharge(db, {
        ...request.body,
        amount: parseMoney(request.body.amount),
        tenantId: me.tenantId,
        organisationId: me.organisationId,
        userId: me.id,
      });
      request.auditTarget = `recharge:${row.serial}`;
      reply.messageKey = 'recharge.submitted';
      const names = await organisationNames(db, me.tenantId, [row.organisationId]);
      return presentRecharge(row, me, names.get(row.organisationId));
    },
  );

  /* ----- list, export, info ----- */

  app.post(
    '/admin/recharge/list',
    {
      config: { permission: ANY_LIST_PAGE },
      schema: {
        tags: ['recharge'],
        body: rechargeListQuery,
        response: { 200: okResponse(rechargeListResponse) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { page, limit, ...filter } = request.body;
      const scope = await organisationScope(db, user);
      const result = await listRecharges(
        db,
        scope,
        { ...filter, lines: linesListable(user) },
        { page, limit },
      );
      const names = await organisationNames(db, user.tenantId, [
        ...new Set(result.list.map((r) => r.organisationId)),
      ]);
      return {
        list: result.list.map((r) => presentRecharge(r, user, names.get(r.organisationId))),
        total: result.total,
        page,
        limit,
      };
    },
  );

  app.post(
    '/admin/recharge/export',
    {
      config: { permission: ANY_LIST_PAGE, raw: true },
      schema: { tags: ['recharge'], body: rechargeListQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, rechargeExport, request.body),
  );

  app.post(
    '/admin/recharge/info',
    {
      config: { permission: ANY_LIST_PAGE },
      schema: { tags: ['recharge'], body: idBody, response: { 200: okResponse(rechargeInfoView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const row = await visibleRecharge(me, request.body.id);
      const [names, audit, receiving] = await Promise.all([
        organisationNames(db, me.tenantId, [row.organisationId]),
        reviewsOf(db, me.tenantId, row.id),
        listReceivingAccounts(db, me.tenantId, false),
      ]);
      const account = receiving.find((a) => a.id === row.receivingAccountId);
      return {
        // Staff check the transfer against the bank, so they see the whole card number.
        ...presentRecharge(row, me, names.get(row.organisationId), me.identity === 'employee'),
        receivingAccount: account ? presentReceivingAccount(account) : null,
        reviews: audit.map((r) => ({
          auditor: r.auditorEmail,
          time: r.createdAt,
          action: r.action,
          result: r.toStatus,
          amount: money(r.creditedAmount),
          fee: money(r.fee),
          note: r.note,
        })),
      };
    },
  );

  /* ----- review ----- */

  /** One review step (settling is one too): the reviewer's line key, then the service's state machine. */
  async function review(
    request: FastifyRequest,
    id: number,
    step: { action: RechargeAction; creditedAmount?: string; fee: string; note: string },
  ) {
    const me = currentUser(request);
    const row = await visibleRecharge(me, id, false);
    request.auditTarget = `recharge:${row.serial}`;
    requireReviewer(me, row.line, request.language);
    const updated = await reviewRecharge(db, {
      tenantId: me.tenantId,
      rechargeId: row.id,
      action: step.action,
      creditedAmount: step.creditedAmount ? parseMoney(step.creditedAmount) : undefined,
      fee: parseMoney(step.fee),
      note: step.note,
      auditor: { id: me.id, email: me.email },
    });
    const names = await organisationNames(db, me.tenantId, [row.organisationId]);
    return presentRecharge(updated, me, names.get(row.organisationId));
  }

  app.post(
    '/admin/recharge/review',
    {
      config: { permission: Object.values(RECHARGE_REVIEW_KEY), audit: 'recharge.review' },
      schema: { tags: ['recharge'], body: rechargeReviewBody, response: { 200: okResponse(rechargeView) } },
    },
    async (request, reply) => {
      const { id, ...step } = request.body;
      const answer = await review(request, id, step);
      reply.messageKey = 'recharge.reviewed';
      return answer;
    },
  );

  app.post(
    '/admin/recharge/settle',
    {
      config: { permission: Object.values(RECHARGE_REVIEW_KEY), audit: 'recharge.settle' },
      schema: { tags: ['recharge'], body: idBody, response: { 200: okResponse(rechargeView) } },
    },
    async (request, reply) => {
      const answer = await review(request, request.body.id, { action: 'settle', fee: '0', note: '' });
      reply.messageKey = 'recharge.settled';
      return answer;
    },
  );

  /** SPEC section 4: polled every 10 s by every signed-in page, so one grouped count and no more. */
  app.get(
    '/admin/recharge/waitNum',
    { schema: { tags: ['recharge'], response: { 200: okResponse(rechargeWaitingView) } } },
    async (request) => {
      const me = currentUser(request);
      const lines = BUSINESS_LINES.filter((line) => mayReview(me, line));
      const counts = await waitingCounts(db, me.tenantId, lines);
      return { waitNum: counts.truck, expressWaitNum: counts.express };
    },
  );
};

export default routes;
