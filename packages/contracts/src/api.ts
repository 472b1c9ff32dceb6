import { z } from 'zod';

/** Envelope codes of SPEC section 8 and ARCHITECTURE section 3. */
export const ResultCode = {
  Ok: 200,
  BadInput: 400,
  /** Session missing or invalid: the client goes to /login. */
  SessionInvalid: 300,
  /** Signed in but not allowed: the client goes to /401. */
  Forbidden: 401,
  NotFound: 404,
  Conflict: 409,
  TooMany: 429,
  ServerError: 500,
  /** The database cannot be reached for now: try again shortly. */
  Unavailable: 503,
} as const;
export type ResultCode = (typeof ResultCode)[keyof typeof ResultCode];

export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export const PAGE_SIZES = [10, 20, 50, 100, 200] as const;
export const DEFAULT_PAGE_SIZE = 10;

/** Pages beyond this are never asked for by a person; the bound keeps the offset exact. */
export const MAX_PAGE = 100_000;

/** List paging in a JSON body: whole numbers, never coerced from strings, booleans or lists. */
export const pageQuery = z.object({
  page: z.number().int().min(1).max(MAX_PAGE).default(1),
  limit: z
    .number()
    .int()
    .refine((v) => (PAGE_SIZES as readonly number[]).includes(v), { message: 'validation.pageSize' })
    .default(DEFAULT_PAGE_SIZE),
});
export type PageQuery = z.infer<typeof pageQuery>;

export interface Page<T> {
  list: T[];
  total: number;
  page: number;
  limit: number;
}

export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';

/** The server stores `zh_CN` / `en` as SPEC section 7 setLocale sends them; the UI speaks BCP 47. */
export function languageFromLocale(locale: string | null | undefined): Language {
  return locale === 'en' || locale === 'en-US' ? 'en-US' : 'zh-CN';
}
export function localeFromLanguage(language: Language): 'en' | 'zh_CN' {
  return language === 'en-US' ? 'en' : 'zh_CN';
}
