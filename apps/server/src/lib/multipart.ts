import { ResultCode } from '@freight/contracts/api';
import type { MessageKey } from '@freight/contracts/messages';
import { queryId } from '@freight/contracts/validation';
import type { FastifyRequest } from 'fastify';
import { AppError, badField } from './errors.ts';

export interface UploadedForm {
  /** The one file of the form. */
  bytes: Buffer;
  /** The form's text fields (a batch import's `address_id`, `organisationId`...). */
  fields: Record<string, string>;
}

/**
 * A multipart form of one file and some text fields, as the batch imports send it (SPEC section 7:
 * `file`, `token`, `address_id`). A file over `maxBytes` or a broken body is refused naming `file`;
 * a form without a file too.
 */
export async function readUploadedForm(request: FastifyRequest, maxBytes: number): Promise<UploadedForm> {
  let bytes: Buffer | null = null;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes + 1, files: 1 } })) {
      if (part.type === 'file') {
        bytes = await part.toBuffer();
        if (part.file.truncated) throw badField('file', 'import.tooLarge');
      } else fields[part.fieldname] = String(part.value ?? '');
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw badField('file', 'import.tooLarge');
  }
  if (!bytes) throw badField('file', 'validation.fileMissing');
  return { bytes, fields };
}

/**
 * The one file of an upload, the `file` field, as the workbook imports send it: refused naming `file`
 * when missing, and with the route's own `tooLargeKey` when it is over `maxBytes` (the app's upload
 * limit when undefined) or the body breaks off. `namesFile: false` answers that without naming the field,
 * as the address books always have.
 */
export async function readUploadedFile(
  request: FastifyRequest,
  maxBytes: number | undefined,
  tooLargeKey: MessageKey,
  namesFile = true,
): Promise<Buffer> {
  const limits = maxBytes === undefined ? undefined : { limits: { fileSize: maxBytes + 1 } };
  const file = await request.file(limits).catch(() => undefined);
  if (!file) throw badField('file', 'validation.fileMissing');
  const bytes = await file.toBuffer().catch(() => null);
  if (!bytes || file.file.truncated)
    throw namesFile ? badField('file', tooLargeKey) : new AppError(ResultCode.BadInput, tooLargeKey);
  return bytes;
}

/**
 * An id a form field carries as digits (`address_id`), under its name or an alias; undefined when the
 * form has none. Anything but an id is refused naming the field.
 */
export function formId(
  fields: Record<string, string>,
  name: string,
  ...aliases: string[]
): number | undefined {
  const raw = [name, ...aliases].map((n) => fields[n]).find((v) => v !== undefined && v !== '');
  if (raw === undefined) return undefined;
  const parsed = queryId().safeParse(raw);
  if (!parsed.success) throw badField(name, 'validation.invalid');
  return parsed.data;
}
