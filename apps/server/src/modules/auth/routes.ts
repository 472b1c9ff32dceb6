import { languageFromLocale, ResultCode } from '@freight/contracts/api';
import {
  changePasswordBody,
  localeView,
  loginFields,
  loginView,
  publicKeyView,
  quotationConfigBody,
  REGISTRATION_OPTIONS,
  registrationOptionsView,
  retrievePasswordBody,
  saveProfileBody,
  setLocaleBody,
  userConfigView,
  userInfoView,
  verificationCodeBody,
} from '@freight/contracts/auth';
import { emptyResponse, okResponse } from '@freight/contracts/responses';
import { str } from '@freight/contracts/validation';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, badField } from '../../lib/errors.ts';
import { originOf } from '../../lib/origin.ts';
import { currentUser } from '../../plugins/context.ts';
import { routeLimit } from '../limits/plugin.ts';
import { LIMITS } from '../limits/service.ts';
import { claimUpload, recordOf, registerRecordAccess } from '../uploads/service.ts';
import { decryptParam, loginKeyPair } from './keys.ts';
import { users } from './schema.ts';
import {
  changePassword,
  findUser,
  login,
  requestPasswordReset,
  requestVerificationCode,
  resetPassword,
  revokeSession,
  sessionsChanged,
} from './service.ts';
import { setLocale } from './users.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  const open = { public: true } as const;

  // A user's avatar is theirs alone to load.
  registerRecordAccess('user', async (_db, user, id) => user.id === id);

  app.post(
    '/publicKey',
    { config: open, schema: { tags: ['auth'], response: { 200: okResponse(publicKeyView) } } },
    async () => {
      const { publicKey } = await loginKeyPair(app.db);
      return { publicKey, mockServer: false };
    },
  );

  app.post(
    '/admin/auth/getVerificationCode',
    {
      config: { ...open, audit: 'auth.code', rateLimit: routeLimit(app, LIMITS.codePerIp) },
      schema: { tags: ['auth'], body: verificationCodeBody, response: { 200: emptyResponse } },
    },
    async (request, reply) => {
      await requestVerificationCode(
        app.db,
        app.mailer,
        {
          tenantId: request.tenant.id,
          // The mail speaks the request's language, the site's name too.
          siteName:
            (request.language === 'en-US' && request.tenant.branding.siteNameEn) ||
            request.tenant.branding.siteName,
          email: request.body.email,
          purpose: request.body.purpose,
          ip: request.ip,
          language: request.language,
          limitScale: app.config.RATE_LIMIT_SCALE,
        },
        app.afterAnswer,
      );
      reply.messageKey = 'auth.codeSent';
      return null;
    },
  );

  const loginSchema = {
    tags: ['auth'],
    body: z.object({
      param: str().max(4096).optional(),
      email: str().max(254).optional(),
      password: str().max(128).optional(),
      code: str().max(10).optional(),
    }),
    response: { 200: okResponse(loginView) },
  };
  const loginHandler = async (request: FastifyRequest<{ Body: z.infer<typeof loginSchema.body> }>) => {
    let payload: unknown = request.body;
    if (request.body.param) {
      payload = decryptParam((await loginKeyPair(app.db)).privateKey, request.body.param);
      if (!payload) throw badField('param', 'auth.decryptFailed');
    }
    const fields = loginFields.parse(payload);
    // The e-mail may have come encrypted: give the log the address that was tried.
    request.auditUser = { id: null, email: fields.email };
    const { token, user } = await login(app.db, {
      tenantId: request.tenant.id,
      email: fields.email,
      passwordDigest: fields.password,
      code: fields.code,
      ip: request.ip,
      userAgent: String(request.headers['user-agent'] ?? ''),
      ttlHours: app.config.SESSION_TTL_HOURS,
      limitScale: app.config.RATE_LIMIT_SCALE,
    });
    request.auditTarget = `user:${user.id}`;
    request.auditUser = { id: user.id, email: user.email };
    return { token };
  };
  // Both paths are one call: one count per IP.
  const loginConfig = {
    ...open,
    audit: 'auth.login',
    rateLimit: routeLimit(app, LIMITS.signInPerIp, 'sign-in'),
  };
  app.post('/admin/auth/login', { config: loginConfig, schema: loginSchema }, loginHandler);
  app.post('/login', { config: loginConfig, schema: loginSchema }, loginHandler);

  const logoutHandler = async (request: FastifyRequest) => {
    await revokeSession(app.db, currentUser(request).tenantId, currentUser(request).sessionHash);
    return null;
  };
  app.post(
    '/logout',
    { config: { audit: 'auth.logout' }, schema: { tags: ['auth'], response: { 200: emptyResponse } } },
    logoutHandler,
  );
  app.post(
    '/admin/auth/logout',
    { config: { audit: 'auth.logout' }, schema: { tags: ['auth'], response: { 200: emptyResponse } } },
    logoutHandler,
  );

  app.post(
    '/admin/auth/options',
    { config: open, schema: { tags: ['auth'], response: { 200: okResponse(registrationOptionsView) } } },
    async () => REGISTRATION_OPTIONS,
  );

  app.post(
    '/admin/auth/retrievePassword',
    {
      config: { ...open, audit: 'auth.retrievePassword', rateLimit: routeLimit(app, LIMITS.resetPerIp) },
      schema: {
        tags: ['auth'],
        body: z.record(str().max(100), z.unknown()),
        response: { 200: emptyResponse },
      },
    },
    async (request, reply) => {
      const body = retrievePasswordBody.parse(
        'token' in request.body ? request.body : { email: request.body.email },
      );
      if ('token' in body) {
        await resetPassword(app.db, {
          tenantId: request.tenant.id,
          token: body.token,
          password: body.password,
        });
        reply.messageKey = 'auth.passwordReset';
      } else {
        await requestPasswordReset(
          app.db,
          app.mailer,
          {
            tenantId: request.tenant.id,
            siteName: request.tenant.branding.siteName,
            siteNameEn: request.tenant.branding.siteNameEn,
            email: body.email,
            origin: originOf(request),
            language: request.language,
            ip: request.ip,
            limitScale: app.config.RATE_LIMIT_SCALE,
          },
          app.afterAnswer,
        );
        reply.messageKey = 'auth.resetSent';
      }
      return null;
    },
  );

  /** Staff work for the tenant: with no company of their own they show its name in their language. */
  const staffCompany = (request: FastifyRequest, identity: string) => {
    if (identity !== 'employee') return '';
    const { siteName, siteNameEn } = request.tenant.branding;
    return request.language === 'en-US' ? siteNameEn || siteName : siteName;
  };

  const userInfo = async (request: FastifyRequest) => {
    const me = currentUser(request);
    const row = await findUser(app.db, me.tenantId, me.id);
    if (!row) throw new AppError(ResultCode.SessionInvalid, 'error.sessionInvalid');
    const hidden = request.tenant.settings.batchOrderHiddenUserIds.includes(row.id);
    return {
      userInfo: {
        id: row.id,
        email: row.email,
        name: row.name,
        company: row.company || staffCompany(request, row.identity),
        phone: row.phone,
        identity: row.identity,
        organisationId: row.organisationId,
        avatar: row.avatarUrl,
        language: languageFromLocale(row.locale),
      },
      language: row.locale,
      permissions: me.roles,
      config: {
        showBatchOrder: !hidden,
        // Configs saved before a setting existed get its default.
        quotation: quotationConfigBody.parse(row.quotationConfig ?? {}),
      },
    };
  };
  app.post(
    '/admin/auth/getInfo',
    { schema: { tags: ['auth'], response: { 200: okResponse(userInfoView) } } },
    userInfo,
  );
  app.post(
    '/admin/admin/info',
    { schema: { tags: ['auth'], response: { 200: okResponse(userInfoView) } } },
    userInfo,
  );
  app.post(
    '/admin/admin/quotationConfig',
    { schema: { tags: ['auth'], response: { 200: okResponse(userConfigView) } } },
    async (request) => {
      const info = await userInfo(request);
      return info.config;
    },
  );

  app.post(
    '/admin/auth/setLocale',
    {
      config: { audit: 'auth.setLocale' },
      schema: { tags: ['auth'], body: setLocaleBody, response: { 200: okResponse(localeView) } },
    },
    async (request, reply) => {
      const me = currentUser(request);
      const language = languageFromLocale(request.body.locale);
      await setLocale(app.db, me.tenantId, me.id, language);
      request.language = language;
      reply.messageKey = 'auth.localeSet';
      return { language: request.body.locale };
    },
  );

  app.post(
    '/admin/admin/saveProfile',
    {
      config: { audit: 'profile.save' },
      schema: { tags: ['profile'], body: saveProfileBody, response: { 200: emptyResponse } },
    },
    async (request) => {
      const me = currentUser(request);
      const { avatarUrl } = request.body;
      await app.db.transaction(async (tx) => {
        // The avatar must be the user's own upload; it stays theirs to load.
        if (avatarUrl)
          await claimUpload(tx, me.tenantId, avatarUrl, recordOf('user', me.id), {
            field: 'avatarUrl',
            by: me.id,
          });
        await tx
          .update(users)
          .set({
            name: request.body.name,
            phone: request.body.phone,
            company: request.body.company,
            ...(avatarUrl !== undefined ? { avatarUrl } : {}),
          })
          .where(and(eq(users.tenantId, me.tenantId), eq(users.id, me.id)));
        // The signed-in user carries the name and the company.
        await sessionsChanged(tx);
      });
      request.auditTarget = `user:${me.id}`;
      return null;
    },
  );

  app.post(
    '/admin/admin/changePassword',
    {
      config: { audit: 'profile.changePassword' },
      schema: { tags: ['profile'], body: changePasswordBody, response: { 200: emptyResponse } },
    },
    async (request, reply) => {
      const me = currentUser(request);
      await changePassword(app.db, {
        tenantId: me.tenantId,
        userId: me.id,
        oldPassword: request.body.oldPassword,
        password: request.body.password,
        keepSessionHash: me.sessionHash,
      });
      reply.messageKey = 'auth.passwordChanged';
      return null;
    },
  );
};

export default routes;
