import { uploadedUrls, uploadFileResponse } from '@freight/contracts/common';
import { okResponse } from '@freight/contracts/responses';
import { storableText } from '@freight/contracts/validation';
import { create as contentDisposition } from 'content-disposition';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badField, notFound, sessionInvalid } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/context.ts';
import { clientOf, consumeLimit, LIMITS } from '../limits/service.ts';
import {
  findUpload,
  IMAGE_TYPES,
  localUploadStore,
  MAX_DOCUMENT_BYTES,
  MAX_IMAGE_BYTES,
  MAX_LICENCE_BYTES,
  MAX_PENDING_PER_CLIENT,
  maySeeUpload,
  saveDocument,
  saveImage,
} from './service.ts';

const routes: FastifyPluginAsyncZod = async (app) => {
  const store = localUploadStore(app.config.DATA_DIR);

  /**
   * SPEC section 7: form data in, `data` a list of URLs out. Registration uploads its licence before
   * sign-in: without a session an image is kept only as a pending licence, swept unless claimed.
   */
  const uploadImage = async (request: import('fastify').FastifyRequest) => {
    // Without a session the only upload is a registration's licence: a few an hour from one address,
    // counted before the file is read.
    const client = request.user ? undefined : clientOf(request.ip);
    if (client !== undefined)
      await consumeLimit(
        app.db,
        `anonymous-upload:${client}`,
        LIMITS.anonymousUploadPerIp,
        app.config.RATE_LIMIT_SCALE,
      );
    const limit = request.user ? MAX_IMAGE_BYTES : MAX_LICENCE_BYTES;
    const file = await request.file({ limits: { fileSize: limit + 1 } }).catch(() => undefined);
    if (!file) throw badField('file', 'validation.fileMissing');
    const bytes = await file.toBuffer().catch(() => null);
    if (!bytes || file.file.truncated) throw badField('file', 'validation.imageTooLarge');
    const saved = await saveImage(app.db, store, {
      tenantId: request.tenant.id,
      userId: request.user?.id ?? null,
      ...(client !== undefined
        ? { client: { key: client, maxPending: MAX_PENDING_PER_CLIENT * app.config.RATE_LIMIT_SCALE } }
        : {}),
      bytes,
      // A file's name is the client's to choose, control characters included.
      originalName: storableText(file.filename, 200),
    });
    request.auditTarget = `upload:${saved.key}`;
    return [saved.url];
  };
  const uploadConfig = { public: true, audit: 'upload.image' } as const;
  app.post(
    '/common/upload/images',
    { config: uploadConfig, schema: { tags: ['upload'], response: { 200: okResponse(uploadedUrls) } } },
    uploadImage,
  );
  app.post(
    '/common/upload/uploadOss',
    { config: uploadConfig, schema: { tags: ['upload'], response: { 200: okResponse(uploadedUrls) } } },
    uploadImage,
  );
  app.post(
    '/common/upload/uploadNanJin',
    { config: uploadConfig, schema: { tags: ['upload'], response: { 200: okResponse(uploadedUrls) } } },
    uploadImage,
  );

  /** Order files and proofs (PDF or photo, under 10 MB), for signed-in users only. */
  app.post(
    '/common/upload/documents',
    {
      config: { audit: 'upload.document' },
      schema: { tags: ['upload'], response: { 200: okResponse(uploadedUrls) } },
    },
    async (request) => {
      const user = currentUser(request);
      const file = await request
        .file({ limits: { fileSize: MAX_DOCUMENT_BYTES + 1 } })
        .catch(() => undefined);
      if (!file) throw badField('file', 'validation.fileMissing');
      const bytes = await file.toBuffer().catch(() => null);
      if (!bytes || file.file.truncated) throw badField('file', 'validation.documentTooLarge');
      const saved = await saveDocument(app.db, store, {
        tenantId: request.tenant.id,
        userId: user.id,
        bytes,
        originalName: storableText(file.filename, 200),
      });
      request.auditTarget = `upload:${saved.key}`;
      return [saved.url];
    },
  );

  app.get(
    '/uploads/:key',
    {
      config: { public: true, raw: true },
      schema: {
        tags: ['upload'],
        params: z.object({
          key: z
            .string()
            .max(100)
            .regex(/^[A-Za-z0-9_-]+\.[a-z]{2,4}$/),
        }),
        response: { 200: uploadFileResponse },
      },
    },
    async (request, reply) => {
      const row = await findUpload(app.db, request.tenant.id, request.params.key);
      if (row?.public) {
        reply.header('cache-control', 'public, max-age=31536000, immutable');
      } else {
        // A private file, or none: who may not see it learns nothing, not even that it exists.
        if (!request.user) throw sessionInvalid();
        if (!row || !(await maySeeUpload(app.db, request.user, row))) throw notFound();
        reply.header('cache-control', 'private, no-store');
      }
      reply.header('x-content-type-options', 'nosniff');
      reply.header('content-security-policy', "default-src 'none'; sandbox");
      reply.header(
        'content-disposition',
        contentDisposition(row.originalName || row.key, {
          // Raster images a browser shows by itself; everything else is only ever downloaded.
          type: IMAGE_TYPES.has(row.mime) ? 'inline' : 'attachment',
        }),
      );
      return reply.type(row.mime).send(store.open(row.key));
    },
  );
};

export default routes;
