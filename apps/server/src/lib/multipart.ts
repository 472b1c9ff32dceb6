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
