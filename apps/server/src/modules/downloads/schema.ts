import type { Language } from '@freight/contracts/api';
import type { DownloadStatus, ExportKindName } from '@freight/contracts/downloads';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { createdAt, id, tenantId } from '../../db/columns.ts';

/**
 * One export a user asked for that runs as a job (the download centre): its filters, its progress while
 * the job writes it, and the file it left under DATA_DIR until it expires.
 */
export const exportFiles = pgTable(
  'export_files',
  {
    tenantId: tenantId(),
    id: id(),
    /** Whose file it is: only they list, download, retry or delete it. */
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    kind: text('kind').$type<ExportKindName>().notNull(),
    /** The title in the language the user asked in, with the time they asked. */
    title: text('title').notNull(),
    /** The list's filters as the export call received them (after validation). */
    params: jsonb('params').$type<Record<string, unknown>>().notNull(),
    /** The column headers' language. */
    language: text('language').$type<Language>().notNull(),
    status: text('status').$type<DownloadStatus>().notNull().default('queued'),
    rowsDone: integer('rows_done').notNull().default(0),
    rowsTotal: integer('rows_total'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    /** The file, relative to DATA_DIR; empty until the job finished it. */
    filePath: text('file_path').notNull().default(''),
    error: text('error').notNull().default(''),
    /** Seen in the download centre: a ready file the user has not seen counts on the top bar. */
    seen: boolean('seen').notNull().default(false),
    /** The queue's job writing it now (the last one sent). */
    jobId: text('job_id'),
    createdAt: createdAt(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    index('export_files_user_time').on(t.tenantId, t.userId, t.createdAt, t.id),
    index('export_files_expiry').on(t.status, t.expiresAt),
  ],
);

export type ExportFileRow = typeof exportFiles.$inferSelect;
