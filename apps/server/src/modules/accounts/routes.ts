import { ResultCode } from '@freight/contracts/api';
import { accountActionBody, adjustmentBody, creditLimitBody } from '@freight/contracts/customers';
import { formatMoney, parseMoney } from '@freight/contracts/money';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, badField, forbidden, notFound } from '../../lib/errors.ts';
import { currentUser, type RequestUser } from '../../plugins/context.ts';
import { canSeeOrganisation, organisationScope } from '../customers/service.ts';
import {
  type AccountRow,
  available,
  findAccount,
  freezeAccount,
  InsufficientFundsError,
  moveMoney,
  setCreditLimit,
  unfreezeAccount,
} from './service.ts';

const present = (a: AccountRow) => ({
  id: a.id,
  organisationId: a.organisationId,
  line: a.line,
  status: a.status,
  balance: formatMoney(a.balance),
  creditLimit: formatMoney(a.creditLimit),
  frozen: formatMoney(a.frozen),
  deposit: formatMoney(a.deposit),
  available: formatMoney(available(a)),
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

  app.post(
    '/admin/account/freeze',
    {
      config: { permission: 'account:freeze', audit: 'account.freeze' },
      schema: { tags: ['accounts'], body: accountActionBody },
    },
    async (request) => {
      const me = currentUser(request);
      const account = await visibleAccount(me, request.body.accountId);
      request.auditTarget = `account:${account.id}`;
      return present(await freezeAccount(db, me.tenantId, account.id, me.id, request.body.reason));
    },
  );

  app.post(
    '/admin/account/unfreeze',
    {
      config: { permission: 'account:freeze', audit: 'account.unfreeze' },
      schema: { tags: ['accounts'], body: accountActionBody },
    },
    async (request) => {
      const me = currentUser(request);
      const account = await visibleAccount(me, request.body.accountId);
      request.auditTarget = `account:${account.id}`;
      return present(await unfreezeAccount(db, me.tenantId, account.id, me.id, request.body.reason));
    },
  );

  app.post(
    '/admin/account/setCreditLimit',
    {
      config: { permission: 'account:credit', audit: 'account.creditLimit' },
      schema: { tags: ['accounts'], body: creditLimitBody },
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
      return present(row);
    },
  );

  app.post(
    '/admin/account/adjust',
    {
      config: { permission: ['account:adjust', 'express-account:adjust'], audit: 'account.adjust' },
      schema: { tags: ['accounts'], body: adjustmentBody },
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
        const result = await moveMoney(db, {
          tenantId: me.tenantId,
          accountId: account.id,
          type: 'manual_adjustment',
          amount,
          operatorId: me.id,
          note: request.body.reason,
          refType: 'manual',
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
