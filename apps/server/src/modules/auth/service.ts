import { type Language, ResultCode } from '@freight/contracts/api';
import type { Identity } from '@freight/contracts/identity';
import { translate } from '@freight/contracts/messages';
import { and, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { announceCacheChange } from '../../db/cache-events.ts';
import type { Db, DbOrTx } from '../../db/client.ts';
import { perHandle } from '../../db/per-handle.ts';
import { type BatchOptions, deleteInBatches } from '../../lib/batched-delete.ts';
import {
  hashPassword,
  randomDigits,
  randomToken,
  sha256Hex,
  verifyPasswordDigest,
} from '../../lib/crypto.ts';
import { AppError, badField, tooMany } from '../../lib/errors.ts';
import { handleKey, ShortCache } from '../../lib/short-cache.ts';
import type { Later } from '../../plugins/after-answer.ts';
import { clientOf, consumeLimit, LIMITS } from '../limits/service.ts';
import type { Mailer } from '../mail/service.ts';
import { sendMail } from '../mail/service.ts';
import {
  loginFailures,
  passwordResets,
  type QuotationConfig,
  type RegistrationProfile,
  sessions,
  users,
  verificationCodes,
} from './schema.ts';

export const CODE_TTL_MINUTES = 10;
export const CODE_RESEND_SECONDS = 60;
export const CODE_MAX_PER_HOUR = 10;
export const CODE_MAX_ATTEMPTS = 5;
export const RESET_TTL_MINUTES = 30;
/** Failed sign-ins to one address from one IP before that pair is locked. */
export const LOGIN_MAX_FAILURES = 10;
/** Failed sign-ins from one IP, any address, before the IP is locked (times `RATE_LIMIT_SCALE`). */
export const LOGIN_MAX_FAILURES_PER_IP = 30;
export const LOGIN_LOCK_MINUTES = 15;

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);
/** An e-mail as accounts are found by it: trimmed, lower case. */
export const normEmail = (email: string) => email.trim().toLowerCase();

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: DbOrTx, tenantId: number, email: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), sql`lower(${users.email}) = ${normEmail(email)}`))
    .limit(1);
  return row ?? null;
}

export async function findUser(db: DbOrTx, tenantId: number, userId: number): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .limit(1);
  return row ?? null;
}

/** The express channels a user's quotation settings leave out of the quotes they price. */
export async function hiddenExpressChannelIds(
  db: DbOrTx,
  tenantId: number,
  userId: number,
): Promise<number[]> {
  const [row] = await db
    .select({ config: users.quotationConfig })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
    .limit(1);
  return row?.config?.hiddenChannelIds ?? [];
}

/** Stores a user's quotation settings; the quote pages check the rows they name first. */
export async function saveQuotationConfig(
  db: DbOrTx,
  tenantId: number,
  userId: number,
  config: QuotationConfig,
): Promise<void> {
  await db
    .update(users)
    .set({ quotationConfig: config })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}

export interface NewUser {
  email: string;
  password: string;
  identity: Identity;
  organisationId?: number | null;
  name: string;
  company?: string;
  phone?: string;
  locale?: string;
  profile?: RegistrationProfile;
}

export async function createUser(db: DbOrTx, tenantId: number, input: NewUser): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({
      tenantId,
      email: normEmail(input.email),
      passwordHash: await hashPassword(input.password),
      identity: input.identity,
      organisationId: input.organisationId ?? null,
      name: input.name,
      company: input.company ?? '',
      phone: input.phone ?? '',
      locale: input.locale ?? 'zh_CN',
      profile: input.profile,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw badField('email', 'auth.emailTaken');
  return row;
}

/* ---------- verification codes ---------- */

export interface CodeRequest {
  tenantId: number;
  siteName: string;
  email: string;
  purpose: 'login' | 'register';
  ip: string;
  language: Language;
  /** `RATE_LIMIT_SCALE` (1 unless told). */
  limitScale?: number;
}

/** How long an IP the account signed in from counts as the owner's, for the address-wide code cap. */
const KNOWN_IP_DAYS = 30;

/** Whether this account (if there is one) signed in from this IP lately: one query either way. */
async function isOwnersIp(db: DbOrTx, tenantId: number, email: string, ip: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(sessions)
    .innerJoin(users, and(eq(users.tenantId, sessions.tenantId), eq(users.id, sessions.userId)))
    .where(
      and(
        eq(sessions.tenantId, tenantId),
        sql`lower(${users.email}) = ${email}`,
        eq(sessions.ip, ip),
        gt(sessions.createdAt, minutesAgo(KNOWN_IP_DAYS * 24 * 60)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Sends a 6-digit code. The answer is the same whether or not the address has an account, for either
 * purpose: the mail goes out after the answer (`later`), and a code is stored either way. Who gets
 * what: a sign-in code only to a known, enabled user; a registration code only to an unknown address,
 * while a registered one is told it already has an account.
 *
 * Limits (docs/decisions.md, "Sign-in code"): one code a minute and ten an hour per address from one
 * IP; ten an hour per address from strangers' IPs (so nobody can bomb a mailbox), which never holds up
 * an IP the account signed in from lately (so nobody can starve the owner either).
 */
export async function requestVerificationCode(
  db: DbOrTx,
  mailer: Mailer,
  req: CodeRequest,
  later: Later,
): Promise<void> {
  const email = normEmail(req.email);
  const client = clientOf(req.ip);
  await consumeLimit(
    db,
    `code:${req.tenantId}:${email}:${client}`,
    LIMITS.codePerAddress,
    req.limitScale ?? 1,
  );
  // Per purpose: the registration code does not hold up the code for the first sign-in right after.
  const [last] = await db
    .select({ createdAt: verificationCodes.createdAt })
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.tenantId, req.tenantId),
        eq(verificationCodes.email, email),
        eq(verificationCodes.purpose, req.purpose),
        eq(verificationCodes.ip, client),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  if (last) {
    const waited = (Date.now() - last.createdAt.getTime()) / 1000;
    if (waited < CODE_RESEND_SECONDS) {
      const seconds = Math.ceil(CODE_RESEND_SECONDS - waited);
      throw tooMany('auth.codeTooSoon', { seconds }, seconds);
    }
  }
  if (!(await isOwnersIp(db, req.tenantId, email, req.ip))) {
    const [recent] = await db
      .select({ n: count() })
      .from(verificationCodes)
      .where(
        and(
          eq(verificationCodes.tenantId, req.tenantId),
          eq(verificationCodes.email, email),
          gt(verificationCodes.createdAt, minutesAgo(60)),
        ),
      );
    if ((recent?.n ?? 0) >= CODE_MAX_PER_HOUR) throw tooMany('auth.codeLimit', {}, 3600);
  }

  const code = randomDigits(6);
  const [stored] = await db
    .insert(verificationCodes)
    .values({
      tenantId: req.tenantId,
      email,
      purpose: req.purpose,
      codeHash: sha256Hex(`${email}:${code}`),
      ip: client,
      expiresAt: new Date(Date.now() + CODE_TTL_MINUTES * 60_000),
    })
    .returning({ id: verificationCodes.id });
  later('verification code mail', () => mailVerificationCode(db, mailer, req, email, code, stored?.id));
}

async function mailVerificationCode(
  db: DbOrTx,
  mailer: Mailer,
  req: CodeRequest,
  email: string,
  code: string,
  storedId: number | undefined,
) {
  const user = await findUserByEmail(db, req.tenantId, email);
  let mail: { subject: string; text: string } | null = null;
  if (req.purpose === 'login' && user?.enabled)
    mail = {
      subject: translate(req.language, 'mail.codeSubject', { site: req.siteName }),
      text: translate(req.language, 'mail.codeBody', { code, minutes: CODE_TTL_MINUTES }),
    };
  if (req.purpose === 'register')
    mail = user
      ? {
          subject: translate(req.language, 'mail.accountExistsSubject', { site: req.siteName }),
          text: translate(req.language, 'mail.accountExistsBody'),
        }
      : {
          subject: translate(req.language, 'mail.codeSubject', { site: req.siteName }),
          text: translate(req.language, 'mail.codeBody', { code, minutes: CODE_TTL_MINUTES }),
        };
  if (!mail) return;
  try {
    await sendMail(db, mailer, { tenantId: req.tenantId, to: email, ...mail });
  } catch (error) {
    // A code that never left does not count against the resend limit: the user may ask again at once.
    if (storedId !== undefined)
      await db
        .delete(verificationCodes)
        .where(and(eq(verificationCodes.tenantId, req.tenantId), eq(verificationCodes.id, storedId)));
    throw error;
  }
}

/** Checks and spends the newest live code; every guess uses up one of its five attempts. */
export async function consumeVerificationCode(
  db: DbOrTx,
  tenantId: number,
  email: string,
  purpose: 'login' | 'register',
  code: string,
): Promise<boolean> {
  const address = normEmail(email);
  const [live] = await db
    .select()
    .from(verificationCodes)
    .where(
      and(
        eq(verificationCodes.tenantId, tenantId),
        eq(verificationCodes.email, address),
        eq(verificationCodes.purpose, purpose),
        isNull(verificationCodes.usedAt),
        gt(verificationCodes.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(verificationCodes.createdAt))
    .limit(1);
  if (!live) return false;
  // The attempt is claimed before the guess is compared, so parallel guesses share the same five.
  const [claimed] = await db
    .update(verificationCodes)
    .set({ attempts: sql`${verificationCodes.attempts} + 1` })
    .where(
      and(
        eq(verificationCodes.tenantId, tenantId),
        eq(verificationCodes.id, live.id),
        isNull(verificationCodes.usedAt),
        lt(verificationCodes.attempts, CODE_MAX_ATTEMPTS),
      ),
    )
    .returning({ id: verificationCodes.id });
  if (!claimed || live.codeHash !== sha256Hex(`${address}:${code}`)) return false;
  // Spending is conditional, so two requests racing with the same code succeed once.
  const spent = await db
    .update(verificationCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(verificationCodes.tenantId, tenantId),
        eq(verificationCodes.id, live.id),
        isNull(verificationCodes.usedAt),
      ),
    )
    .returning({ id: verificationCodes.id });
  return spent.length === 1;
}

/* ---------- sessions ---------- */

export async function createSession(
  db: DbOrTx,
  input: { tenantId: number; userId: number; ip: string; userAgent: string; ttlHours: number },
): Promise<string> {
  const token = randomToken();
  await db.insert(sessions).values({
    tokenHash: sha256Hex(token),
    tenantId: input.tenantId,
    userId: input.userId,
    ip: input.ip,
    userAgent: input.userAgent.slice(0, 300),
    expiresAt: new Date(Date.now() + input.ttlHours * 3_600_000),
  });
  return token;
}

// Every authenticated request runs this lookup, so it is built once per database handle.
const findSessionStatement = perHandle((db: Db) =>
  db
    .select({ user: users, tokenHash: sessions.tokenHash, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, and(eq(users.tenantId, sessions.tenantId), eq(users.id, sessions.userId)))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        eq(sessions.tenantId, sql.placeholder('tenantId')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        eq(users.enabled, true),
      ),
    )
    .limit(1)
    .prepare('find_session'),
);
type SessionRow = { user: UserRow; tokenHash: string; expiresAt: Date };

/**
 * Live sessions with their users, kept a few seconds per process so a signed-in request costs no
 * round trip before its own work. Whatever ends a session or changes its user (sign-out, a password
 * change, a disabled user or tenant, a profile change) drops the cache here and, once committed, in
 * every process (`sessionsChanged`). A process that missed the notice drops the entry when it expires:
 * that life is the longest a revoked session can still be served (docs/decisions.md, "Session cache").
 */
export const SESSION_CACHE_MS = 5_000;
const sessionCache = new ShortCache<string, SessionRow | null>(SESSION_CACHE_MS);

export function forgetCachedSessions(): void {
  sessionCache.clear();
}

/**
 * Says that sessions or users changed: this process forgets them now, every process (this one too)
 * when the change commits. Inside a transaction the caller need do nothing more.
 */
export async function sessionsChanged(db: DbOrTx): Promise<void> {
  forgetCachedSessions();
  await announceCacheChange(db, 'sessions');
}

/** The live session behind a token, within this tenant, with its enabled user. */
export async function findSession(db: Db, tenantId: number, token: string): Promise<SessionRow | null> {
  // Keyed by the token itself: a cached session then costs no hashing (the cache lives in this process
  // only, as the token does in the request).
  const row = await sessionCache.through(
    `${handleKey(db)}:${tenantId}:${token}`,
    async () => {
      const tokenHash = sha256Hex(token);
      const [found] = await findSessionStatement(db).execute({ tokenHash, tenantId });
      return found ?? null;
    },
    // Unknown tokens are not kept: anyone may send any number of them.
    (found) => found !== null,
  );
  // A session that ran out while cached is over, as the query would say.
  return row && row.expiresAt.getTime() > Date.now() ? row : null;
}

export async function revokeSession(db: DbOrTx, tenantId: number, tokenHash: string): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.tenantId, tenantId), eq(sessions.tokenHash, tokenHash)));
  await sessionsChanged(db);
}

/** Ends every session of a user, or every one but `keepHash` (the caller's own, after a password change). */
export async function revokeUserSessions(db: DbOrTx, tenantId: number, userId: number, keepHash?: string) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(sessions.tenantId, tenantId),
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        keepHash ? sql`${sessions.tokenHash} <> ${keepHash}` : undefined,
      ),
    );
  await sessionsChanged(db);
}

/** Ends every session of a tenant at once (the tenant was disabled). */
export async function revokeTenantSessions(db: DbOrTx, tenantId: number): Promise<number> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.tenantId, tenantId), isNull(sessions.revokedAt)))
    .returning({ tokenHash: sessions.tokenHash });
  await sessionsChanged(db);
  return ended.length;
}

/* ---------- sign-in ---------- */

export interface LoginInput {
  tenantId: number;
  email: string;
  passwordDigest: string;
  code: string;
  ip: string;
  userAgent: string;
  ttlHours: number;
  /** `RATE_LIMIT_SCALE`: multiplies the per-IP lock (1 unless told). */
  limitScale?: number;
}

/**
 * E-mail, password digest and e-mailed code, all three or nothing. Every failure gives the same
 * message, so the answer never says which part was wrong or whether the account exists.
 *
 * Failures lock the client, never the account: an address from one IP after ten, an IP after thirty
 * over any addresses. Someone guessing elsewhere cannot keep the owner out.
 */
export async function login(db: DbOrTx, input: LoginInput): Promise<{ token: string; user: UserRow }> {
  const email = normEmail(input.email);
  const client = clientOf(input.ip);
  const since = minutesAgo(LOGIN_LOCK_MINUTES);
  // Every query here leads with (tenant, IP): index `login_failures_ip`. Failures older than the lock
  // count for nothing and are deleted by the housekeeping pass (`sweepLoginFailures`).
  const fromThisIp = and(eq(loginFailures.tenantId, input.tenantId), eq(loginFailures.ip, client));
  // The attempt is written down before it is judged, so parallel guesses count against the same ten.
  const [attempt] = await db
    .insert(loginFailures)
    .values({ tenantId: input.tenantId, email, ip: client })
    .returning({ id: loginFailures.id });
  const [failures] = await db
    .select({
      ip: count(),
      address: sql<number>`count(*) filter (where ${loginFailures.email} = ${email})`.mapWith(Number),
      oldestSeconds: sql<number>`extract(epoch from min(${loginFailures.createdAt}))`.mapWith(Number),
    })
    .from(loginFailures)
    .where(and(fromThisIp, gt(loginFailures.createdAt, since)));
  const perIp = Math.round(LOGIN_MAX_FAILURES_PER_IP * (input.limitScale ?? 1));
  if ((failures?.address ?? 0) > LOGIN_MAX_FAILURES || (failures?.ip ?? 0) > perIp) {
    // A refused attempt was never judged, so it does not prolong the lock.
    if (attempt)
      await db
        .delete(loginFailures)
        .where(and(eq(loginFailures.tenantId, input.tenantId), eq(loginFailures.id, attempt.id)));
    const opensAt = (failures?.oldestSeconds ?? 0) * 1000 + LOGIN_LOCK_MINUTES * 60_000;
    throw tooMany('auth.loginLocked', {}, Math.max(1, Math.ceil((opensAt - Date.now()) / 1000)));
  }

  const failed = () => new AppError(ResultCode.BadInput, 'auth.loginFailed');
  const user = await findUserByEmail(db, input.tenantId, email);
  // An unknown e-mail costs the same argon2 check as a known one, so the timing does not tell them apart.
  const passwordOk = await verifyPasswordDigest(
    user?.passwordHash ?? (await unknownUserHash()),
    input.passwordDigest,
  );
  if (!user || !passwordOk) throw failed();
  if (!(await consumeVerificationCode(db, input.tenantId, email, 'login', input.code))) throw failed();
  // Not a permission problem of a signed-in user (401 sends the client to /401): the account's state.
  if (!user.enabled) throw new AppError(ResultCode.Conflict, 'auth.accountDisabled');

  // The owner has proved who they are: this address's failures from here are forgiven.
  await db.delete(loginFailures).where(and(fromThisIp, eq(loginFailures.email, email)));
  await db
    .update(users)
    .set({ lastLoginAt: new Date() })
    .where(and(eq(users.tenantId, input.tenantId), eq(users.id, user.id)));
  const token = await createSession(db, { ...input, userId: user.id });
  return { token, user };
}

/* ---------- housekeeping (run by the housekeeping pass, never by a request) ---------- */

/** How long spent codes and reset links are kept after they expire, to look into a complaint. */
export const SPENT_TOKEN_KEEP_HOURS = 24;

/** Failed sign-ins older than the lock: they no longer count for anything. */
export function sweepLoginFailures(db: DbOrTx, options?: BatchOptions): Promise<number> {
  return deleteInBatches(
    db,
    loginFailures,
    lt(loginFailures.createdAt, minutesAgo(LOGIN_LOCK_MINUTES)),
    options,
  );
}

/**
 * Codes expired for more than a day (a used code expired too: it is used before it expires). The
 * resend and hourly limits read only the last hour.
 */
export function sweepVerificationCodes(db: DbOrTx, options?: BatchOptions): Promise<number> {
  const cutoff = minutesAgo(SPENT_TOKEN_KEEP_HOURS * 60);
  return deleteInBatches(db, verificationCodes, lt(verificationCodes.expiresAt, cutoff), options);
}

/** Reset links expired for more than a day, used or not; the hourly cap reads only the last hour. */
export function sweepPasswordResets(db: DbOrTx, options?: BatchOptions): Promise<number> {
  const cutoff = minutesAgo(SPENT_TOKEN_KEEP_HOURS * 60);
  return deleteInBatches(db, passwordResets, lt(passwordResets.expiresAt, cutoff), options);
}

let unknownUserHashPromise: Promise<string> | undefined;
function unknownUserHash(): Promise<string> {
  unknownUserHashPromise ??= hashPassword(randomToken());
  return unknownUserHashPromise;
}

/* ---------- passwords ---------- */

export async function setPassword(db: DbOrTx, tenantId: number, userId: number, password: string) {
  await db
    .update(users)
    .set({ passwordHash: await hashPassword(password), passwordChangedAt: new Date() })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}

export async function changePassword(
  db: DbOrTx,
  input: { tenantId: number; userId: number; oldPassword: string; password: string; keepSessionHash: string },
) {
  const user = await findUser(db, input.tenantId, input.userId);
  if (!user || !(await verifyPasswordDigest(user.passwordHash, sha256Hex(input.oldPassword))))
    throw badField('oldPassword', 'auth.oldPasswordWrong');
  await setPassword(db, input.tenantId, input.userId, input.password);
  await revokeUserSessions(db, input.tenantId, input.userId, input.keepSessionHash);
}

export interface ResetRequest {
  tenantId: number;
  siteName: string;
  /** The English site name, for a reader of English; empty means `siteName`. */
  siteNameEn?: string;
  email: string;
  origin: string;
  language: Language;
  ip: string;
  /** `RATE_LIMIT_SCALE` (1 unless told). */
  limitScale?: number;
}

/**
 * Mails a single-use reset link; says the same, in the same time, whether or not the e-mail is known:
 * everything but the limit per address from this IP happens after the answer.
 */
export async function requestPasswordReset(
  db: DbOrTx,
  mailer: Mailer,
  input: ResetRequest,
  later: Later,
): Promise<void> {
  const email = normEmail(input.email);
  await consumeLimit(
    db,
    `reset:${input.tenantId}:${email}:${clientOf(input.ip)}`,
    LIMITS.resetPerAddress,
    input.limitScale ?? 1,
  );
  later('password reset mail', () => mailPasswordReset(db, mailer, input));
}

async function mailPasswordReset(db: DbOrTx, mailer: Mailer, input: ResetRequest): Promise<void> {
  const user = await findUserByEmail(db, input.tenantId, input.email);
  if (!user?.enabled) return;
  const [recent] = await db
    .select({ n: count() })
    .from(passwordResets)
    .where(
      and(
        eq(passwordResets.tenantId, input.tenantId),
        eq(passwordResets.userId, user.id),
        gt(passwordResets.createdAt, minutesAgo(60)),
      ),
    );
  // Past the limit nothing more is mailed, but the answer stays the one an unknown address gets.
  if ((recent?.n ?? 0) >= CODE_MAX_PER_HOUR) return;
  const token = randomToken();
  await db.insert(passwordResets).values({
    tokenHash: sha256Hex(token),
    tenantId: input.tenantId,
    userId: user.id,
    expiresAt: new Date(Date.now() + RESET_TTL_MINUTES * 60_000),
  });
  const language = user.locale === 'en' ? 'en-US' : input.language;
  const link = `${input.origin}/forgotPassword?token=${token}`;
  await sendMail(db, mailer, {
    tenantId: input.tenantId,
    to: user.email,
    subject: translate(language, 'mail.resetSubject', {
      site: (language === 'en-US' && input.siteNameEn) || input.siteName,
    }),
    text: translate(language, 'mail.resetBody', { link, minutes: RESET_TTL_MINUTES }),
  });
}

/** How long a new administrator's set-password link lasts: they may not read the mail at once. */
export const WELCOME_LINK_DAYS = 7;

/**
 * A set-password link for a user created without a password they know (a new tenant's first
 * administrator): the same single-use token as a reset link, longer lived. Returns the token; the
 * caller mails it once its transaction has committed (`mailWelcome`).
 */
export async function createPasswordSetupToken(
  db: DbOrTx,
  tenantId: number,
  userId: number,
): Promise<string> {
  const token = randomToken();
  await db.insert(passwordResets).values({
    tokenHash: sha256Hex(token),
    tenantId,
    userId,
    expiresAt: new Date(Date.now() + WELCOME_LINK_DAYS * 24 * 3_600_000),
  });
  return token;
}

/** Mails the new administrator their set-password link, opened on the reset-password page. */
export async function mailWelcome(
  db: DbOrTx,
  mailer: Mailer,
  input: {
    tenantId: number;
    email: string;
    siteName: string;
    origin: string;
    token: string;
    language: Language;
  },
): Promise<void> {
  const link = `${input.origin}/forgotPassword?token=${input.token}`;
  await sendMail(db, mailer, {
    tenantId: input.tenantId,
    to: normEmail(input.email),
    subject: translate(input.language, 'mail.welcomeSubject', { site: input.siteName }),
    text: translate(input.language, 'mail.welcomeBody', {
      site: input.siteName,
      email: normEmail(input.email),
      link,
      days: WELCOME_LINK_DAYS,
    }),
  });
}

export async function resetPassword(
  db: DbOrTx,
  input: { tenantId: number; token: string; password: string },
): Promise<void> {
  const [spent] = await db
    .update(passwordResets)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(passwordResets.tokenHash, sha256Hex(input.token)),
        eq(passwordResets.tenantId, input.tenantId),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, new Date()),
      ),
    )
    .returning({ userId: passwordResets.userId });
  if (!spent) throw badField('token', 'auth.resetInvalid');
  await setPassword(db, input.tenantId, spent.userId, input.password);
  await revokeUserSessions(db, input.tenantId, spent.userId);
}
