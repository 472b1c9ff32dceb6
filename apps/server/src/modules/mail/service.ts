import { ResultCode } from '@freight/contracts/api';
import { and, desc, eq, lt, ne, or, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { type BatchOptions, deleteInBatches } from '../../lib/batched-delete.ts';
import { AppError } from '../../lib/errors.ts';
import { nodemailer } from '../../lib/lazy-packages.ts';
import { outbox } from './schema.ts';

export interface MailMessage {
  tenantId: number;
  to: string;
  subject: string;
  text: string;
}

/** Delivers a stored message; null when no SMTP is configured (the outbox is then the mailbox). */
export type Mailer = {
  deliver(message: { to: string; subject: string; text: string }): Promise<void>;
} | null;

export function createMailer(smtpUrl: string | undefined, from: string): Mailer {
  if (!smtpUrl) return null;
  const transport = nodemailer().createTransport(smtpUrl);
  return {
    async deliver(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}

/** Stores the message, then hands it to SMTP when there is one; a failed delivery is kept and reported. */
export async function sendMail(db: DbOrTx, mailer: Mailer, message: MailMessage): Promise<void> {
  const [row] = await db
    .insert(outbox)
    .values({ ...message, status: 'stored' })
    .returning({ id: outbox.id });
  if (!mailer || !row) return;
  try {
    await mailer.deliver(message);
    await db
      .update(outbox)
      .set({ status: 'sent', sentAt: new Date() })
      .where(and(eq(outbox.tenantId, message.tenantId), eq(outbox.id, row.id)));
  } catch (error) {
    await db
      .update(outbox)
      .set({ status: 'failed', error: String(error).slice(0, 500) })
      .where(and(eq(outbox.tenantId, message.tenantId), eq(outbox.id, row.id)));
    throw new AppError(ResultCode.ServerError, 'error.mailFailed');
  }
}

export async function listOutbox(db: DbOrTx, tenantId: number, to?: string, limit = 50) {
  return db
    .select()
    .from(outbox)
    .where(and(eq(outbox.tenantId, tenantId), to ? eq(outbox.to, to.toLowerCase()) : undefined))
    .orderBy(desc(outbox.id))
    .limit(limit);
}

/** How long a sent (or, without SMTP, stored) message is kept: long enough to answer "did you mail me?". */
export const MAIL_KEEP_DAYS = 30;
/** A failed delivery is kept longer, for whoever looks into the mail server. */
export const FAILED_MAIL_KEEP_DAYS = 90;

/** Deletes messages past their keeping time, in bounded batches; run by the housekeeping pass. */
export function sweepOldMail(db: DbOrTx, options?: BatchOptions): Promise<number> {
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
  return deleteInBatches(
    db,
    outbox,
    or(
      and(ne(outbox.status, 'failed'), lt(outbox.createdAt, daysAgo(MAIL_KEEP_DAYS))),
      lt(outbox.createdAt, daysAgo(FAILED_MAIL_KEEP_DAYS)),
    ) as SQL,
    options,
  );
}
