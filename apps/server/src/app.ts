import type { IncomingMessage, ServerResponse } from 'node:http';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { ResultCode } from '@freight/contracts/api';
import { translate } from '@freight/contracts/messages';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import helmet from 'helmet';
import { type Config, responseCheckOf } from './config.ts';
import type { Database } from './db/client.ts';
import { jobsPlugin } from './jobs/plugin.ts';
import { responseSerializerCompiler } from './lib/response-serializer.ts';
import { modules, shipmentModules } from './modules/index.ts';
import { rateLimitPlugin } from './modules/limits/plugin.ts';
import { createMailer, type Mailer } from './modules/mail/service.ts';
import { publicBranding } from './modules/site/service.ts';
import { WEB_DIST } from './paths.ts';
import { afterAnswerPlugin } from './plugins/after-answer.ts';
import { auditPlugin } from './plugins/audit.ts';
import { authPlugin } from './plugins/auth.ts';
import { cacheEventsPlugin } from './plugins/cache-events.ts';
import { envelopePlugin, frameworkErrorHandler, zodValidatorCompiler } from './plugins/envelope.ts';
import { housekeepingPlugin } from './plugins/housekeeping.ts';
import { tenantPlugin } from './plugins/tenant.ts';
import { registerWebApp } from './web-app.ts';

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export interface AppOptions {
  config: Config;
  database: Database;
  /** Tests pass their own; otherwise built from `SMTP_URL`. */
  mailer?: Mailer;
  /** Serve the built web app (off in API tests). */
  serveWeb?: boolean;
  /** Where the built web app is (default apps/web/dist). */
  webRoot?: string;
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger:
      config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            redact: ['req.headers.accesstoken', 'req.headers.userkey', 'req.headers.cookie'],
          },
    // Only a proxy on this host or the private network may name the client; anyone else could forge the
    // address the operation log keeps.
    trustProxy: 'loopback, linklocal, uniquelocal',
    bodyLimit: 2 * 1024 * 1024,
    requestIdHeader: 'x-request-id',
    routerOptions: { ignoreTrailingSlash: true },
    // An over-long path parameter or a malformed URL is answered in the envelope too.
    frameworkErrors: frameworkErrorHandler,
    // While draining on shutdown, a request that still arrives on an open connection is served (with
    // `Connection: close`) rather than refused outside the envelope; new connections are refused.
    return503OnClosing: false,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler(responseCheckOf(config), app.log));
  app.decorate('config', config);
  app.decorate('database', database);
  app.decorate('db', database.db);
  // The reader says when the replica goes away (reports then read the primary) and when it is back.
  database.logTo?.(app.log);
  app.decorate(
    'mailer',
    options.mailer === undefined ? createMailer(config.SMTP_URL, config.MAIL_FROM) : options.mailer,
  );

  // The security headers of every answer, worked out once: the Fastify plugin for them built helmet's
  // middleware again, policy parsed, on every request (a twentieth of a small call's CPU), and even
  // built once its dozen steps cost a fiftieth.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        // Ant Design writes its styles at run time.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'connect-src': ["'self'"],
        // Every asset is the page's own, by relative URL, so there is nothing to upgrade; and a tenant
        // served over plain HTTP (`--scheme http`) would get its scripts asked for over HTTPS and a blank page.
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  // They are the same for every request: taken once from the middleware, then set as they are (on the
  // raw answer, so the streamed ones, which Fastify hands over, carry them too).
  const headerList: [string, string][] = [];
  securityHeaders(
    {} as IncomingMessage,
    {
      setHeader: (name: string, value: string) => headerList.push([name, String(value)]),
      removeHeader: () => {},
    } as unknown as ServerResponse,
    (error) => {
      if (error) throw error;
    },
  );
  app.addHook('onRequest', (_request, reply, done) => {
    for (const [name, value] of headerList) reply.raw.setHeader(name, value);
    done();
  });
  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20 } });
  await app.register(envelopePlugin);
  await app.register(swagger, {
    openapi: { info: { title: 'Freight portal API', version: '0.1.0' } },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', uiConfig: { docExpansion: 'none' } });
  await app.register(tenantPlugin);
  await app.register(cacheEventsPlugin);
  await app.register(authPlugin);
  await app.register(auditPlugin);
  await app.register(rateLimitPlugin);
  await app.register(afterAnswerPlugin);
  await app.register(jobsPlugin);

  for (const module of modules) await app.register(module, { prefix: '/api' });
  for (const module of shipmentModules) await app.register(module, { prefix: '/shipment' });
  await app.register(housekeepingPlugin);

  const sendWebPage =
    (options.serveWeb ?? true)
      ? await registerWebApp(app, options.webRoot ?? WEB_DIST, (request) =>
          request.tenant ? publicBranding(request.tenant, request.host) : null,
        )
      : null;
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const wantsApi = path.startsWith('/api/') || path === '/api' || request.method !== 'GET';
    if (!wantsApi && sendWebPage) {
      // The browser router owns every other path (SPEC section 2: unknown paths go to /404 there).
      return sendWebPage(request, reply);
    }
    return reply.status(404).send({
      code: ResultCode.NotFound,
      msg: translate(request.language ?? 'zh-CN', 'error.routeNotFound'),
      data: null,
    });
  });

  return app;
}
