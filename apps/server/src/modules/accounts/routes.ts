import {
  accountView,
  adjustmentView,
  balanceQuery,
  balanceTotalView,
  ledgerListView,
  ledgerQuery,
} from '@freight/contracts/accounts';
import { type Language, ResultCode } from '@freight/contracts/api';
import { accountActionBody, adjustmentBody, creditLimitBody } from '@freight/contracts/customers';
import { exportResponse } from '@freight/contracts/downloads';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import { okResponse } from '@freight/contracts/responses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client.ts';
import { AppError, badField, forbidden, notFound } from '../../lib/errors.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import {
  canSeeOrganisation,
  organisationNames,
  organisationScope,
  visibleOrganisationIds,
} from '../customers/service.ts';
import { answerExport } from '../downloads/runner.ts';
import {
  DEDUCTIONS_VIEW,
  DETAILS_VIEW,
  type LedgerView,
  LOG_VIEW,
  ledgerDeductionsExport,
  ledgerDetailsExport,
  ledgerLogExport,
  ledgerScope,
  presentLedger,
} from './export.ts';
import {
  type AccountRow,
  accountActions,
  adjustBalance,
  available,
  findAccount,
  freezeAccount,
  InsufficientFundsError,
  listAccounts,
  listLedger,
  setCreditLimit,
  unfreezeAccount,
} from './service.ts';

/** An account as the API shows it; `actions` are what the caller may do to it now. */
const present = (a: AccountRow, viewer: RequestUser) => ({
  id: a.id,
  organisationId: a.organisationId,
  line: a.line,
  status: a.status,
  balance: formatMoney(a.balance),
  creditLimit: formatMoney(a.creditLimit),
  frozen: formatMoney(a.frozen),
  deposit: formatMoney(a.deposit),
  available: formatMoney(available(a)),
  actions: accountActions(a, viewer),
});

/** Staff actions on one account: freeze, unfreeze, credit limit, manual adjustment; each with a reason. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db;

  async function visibleAccount(user: RequestUser, accountId: number): Promise<AccountRow> {
    const account = await findAccount(db, user.tenantId, accountId);
    if (!account) throw notFound();
    const scope = await organisationScope(db, user);
    if (!(await canSeeOrganisation(db, scope, account.organisationId))) throw notFound();
    return account;
  }

  const BALANCE_PAGES = { truck: '/balanceTotal', express: '/deliveryBalanceTotal' } as const;

  /**
   * The customers module's subquery of what the caller may see; null for staff (the whole tenant).
   * Wrapped, because a query builder handed out of an async function would run there and then.
   */
  async function visibleScope(user: RequestUser, from: Db = db) {
    const scope = await organisationScope(from, user);
    return { ids: scope.kind === 'tenant' ? null : visibleOrganisationIds(from, scope) };
  }

  const ledgerRows = async (
    language: Language,
    user: RequestUser,
    query: typeof ledgerQuery._output,
    view: LedgerView = DETAILS_VIEW,
  ) => {
    const { filter, visible } = await ledgerScope(db, user, query, view);
    const { page, limit } = query;
    const result = await listLedger(db, user.tenantId, visible, filter, { page, limit });
    return {
      list: await presentLedger(db, user, language, result.list),
      total: result.total,
      page,
      limit,
      totals: { credits: formatMoney(result.credits), debits: formatMoney(result.debits) },
    };
  };

  app.post(
    '/admin/account/details',
    {
      config: { permission: Object.values(DETAILS_VIEW.pages) },
      schema: { tags: ['accounts'], body: ledgerQuery, response: { 200: okResponse(ledgerListView) } },
    },
    async (request) => ledgerRows(request.language, currentUser(request), request.body),
  );

  // The ledger views' exports (export.ts): few rows at once, more written by a job in the download centre.
  app.post(
    '/admin/account/detailsExport',
    {
      config: { permission: ['account:export', 'express-account:export'], raw: true },
      schema: { tags: ['accounts'], body: ledgerQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, ledgerDetailsExport, request.body),
  );

  /** The account log: what happened to accounts other than orders and recharges (SPEC section 2). */
  app.post(
    '/admin/account/log',
    {
      config: { permission: Object.values(LOG_VIEW.pages) },
      schema: { tags: ['accounts'], body: ledgerQuery, response: { 200: okResponse(ledgerListView) } },
    },
    async (request) => ledgerRows(request.language, currentUser(request), request.body, LOG_VIEW),
  );
  app.post(
    '/admin/account/logExport',
    {
      config: { permission: Object.values(LOG_VIEW.pages), raw: true },
      schema: { tags: ['accounts'], body: ledgerQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, ledgerLogExport, request.body),
  );

  /** Supplementary deduction details: surcharges and work-order deductions, a view over the ledger. */
  app.post(
    '/admin/account/deductions',
    {
      config: { permission: '/deductionDetails' },
      schema: { tags: ['accounts'], body: ledgerQuery, response: { 200: okResponse(ledgerListView) } },
    },
    async (request) => ledgerRows(request.language, currentUser(request), request.body, DEDUCTIONS_VIEW),
  );
  app.post(
    '/admin/account/deductionsExport',
    {
      config: { permission: '/deductionDetails', raw: true },
      schema: { tags: ['accounts'], body: ledgerQuery, response: { 200: exportResponse } },
    },
    (request, reply) => answerExport(app, request, reply, ledgerDeductionsExport, request.body),
  );

  app.post(
    '/admin/account/balanceTotal',
    {
      config: { permission: Object.values(BALANCE_PAGES) },
      schema: { tags: ['accounts'], body: balanceQuery, response: { 200: okResponse(balanceTotalView) } },
    },
    async (request) => {
      const me = currentUser(request);
      if (!me.grants.has(BALANCE_PAGES[request.body.line])) throw forbidden();
      const rows = await listAccounts(db, me.tenantId, (await visibleScope(me)).ids, request.body.line);
      const names = await organisationNames(
        db,
        me.tenantId,
        rows.map((r) => r.organisationId),
      );
      const sum = (pick: (a: AccountRow) => bigint) => formatMoney(rows.reduce((s, a) => s + pick(a), 0n));
      return {
        list: rows.map((a) => ({ ...present(a, me), organisationName: names.get(a.organisationId) ?? '' })),
        totals: {
          balance: sum((a) => a.balance),
          creditLimit: sum((a) => a.creditLimit),
          frozen: sum((a) => a.frozen),
          deposit: sum((a) => a.deposit),
          available: sum(available),
        },
      };
    },
  );

  app.post(
    '/admin/account/freeze',
    {
      config: { permission: 'account:freeze', audit: 'account.freeze' },
      schema: { tags: ['accounts'], body: accountActionBody, response: { 200: okResponse(accountView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const account = await visibleAccount(me, request.body.accountId);
      request.auditTarget = `account:${account.id}`;
      return present(await freezeAccount(db, me.tenantId, account.id, me.id, request.body.reason), me);
    },
  );

  app.post(
    '/admin/account/unfreeze',
    {
      config: { permission: 'account:freeze', audit: 'account.unfreeze' },
      schema: { tags: ['accounts'], body: accountActionBody, response: { 200: okResponse(accountView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const account = await visibleAccount(me, request.body.accountId);
      request.auditTarget = `account:${account.id}`;
      return present(await unfreezeAccount(db, me.tenantId, account.id, me.id, request.body.reason), me);
    },
  );

  app.post(
    '/admin/account/setCreditLimit',
    {
      config: { permission: 'account:credit', audit: 'account.creditLimit' },
      schema: { tags: ['accounts'], body: creditLimitBody, response: { 200: okResponse(accountView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const account = await visibleAccount(me, request.body.accountId);
      request.auditTarget = `account:${account.id}`;
      const row = await setCreditLimit(db, {
        tenantId: me.tenantId,
        accountId: account.id,
        creditLimit: parseMoney(request.body.creditLimit),
        operatorId: me.id,
        reason: request.body.reason,
      });
      if (!row) throw notFound();
      return present(row, me);
    },
  );

  app.post(
    '/admin/account/adjust',
    {
      config: { permission: ['account:adjust', 'express-account:adjust'], audit: 'account.adjust' },
      schema: { tags: ['accounts'], body: adjustmentBody, response: { 200: okResponse(adjustmentView) } },
    },
    async (request) => {
      const me = currentUser(request);
      const account = await visibleAccount(me, request.body.accountId);
      request.auditTarget = `account:${account.id}`;
      if (!me.grants.has(account.line === 'truck' ? 'account:adjust' : 'express-account:adjust'))
        throw forbidden();
      const amount = parseMoney(request.body.amount);
      if (amount === 0n) throw badField('amount', 'accounts.zeroAdjustment');
      try {
        const result = await adjustBalance(db, {
          tenantId: me.tenantId,
          accountId: account.id,
          amount,
          operatorId: me.id,
          reason: request.body.reason,
          requestKey: request.body.requestKey,
        });
        return { entryId: result.entryId, balanceAfter: formatMoney(result.balanceAfter) };
      } catch (error) {
        if (error instanceof InsufficientFundsError)
          throw new AppError(ResultCode.Conflict, 'accounts.insufficient');
        throw error;
      }
    },
  );
};

export default routes;
