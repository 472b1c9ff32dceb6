import { MAX_IMPORT_ROWS } from '@freight/contracts/addresses';
import { type Language, ResultCode } from '@freight/contracts/api';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import { AppError, badField } from '../../lib/errors.ts';
import { readUploadedFile } from '../../lib/multipart.ts';
import type { SheetOutcome } from './service.ts';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * An address book's import (the truck book's and the express book's): the uploaded file must be an
 * xlsx, `read` checks its sheet row by row, and `insert` writes every entry to `owner`'s book, or none when the
 * file or any row is bad.
 */
export async function importToBook<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  owner: number,
  read: (bytes: Buffer, language: Language) => Promise<SheetOutcome<T> | null>,
  insert: (entries: T[]) => Promise<void>,
): Promise<{ imported: number }> {
  // The app's own upload limit; the books have always answered a larger file naming no field.
  const bytes = await readUploadedFile(request, undefined, 'error.payloadTooLarge', false);
  // By content, not by name: an xlsx is a zip archive holding a workbook.
  const type = await fileTypeFromBuffer(bytes);
  const outcome = type?.mime === XLSX_MIME ? await read(bytes, request.language) : null;
  if (!outcome) throw badField('file', 'import.notXlsx');
  if ('fileError' in outcome)
    throw badField('file', outcome.fileError, { max: MAX_IMPORT_ROWS, ...outcome.params });
  if ('rows' in outcome)
    throw new AppError(ResultCode.BadInput, 'import.failed', {}, undefined, { rows: outcome.rows });
  await insert(outcome.entries);
  request.auditTarget = `organisation:${owner}`;
  reply.messageKey = 'addresses.imported';
  reply.messageParams = { count: outcome.entries.length };
  return { imported: outcome.entries.length };
}
