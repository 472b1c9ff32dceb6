import { z } from 'zod';
import { pageQuery } from './api.ts';
import { pageOf, timestamp } from './responses.ts';
import { idField, str } from './validation.ts';

/**
 * Carrier accounts: the tenant's own accounts with carriers whose APIs price, book and track its
 * shipments (UPS directly, many carriers through a Karrio server). Credentials go in and never come
 * out: no answer, export or log holds them.
 */

/**
 * The provider every product and channel priced from the tenant's own tables names; any other is a
 * carrier account's kind.
 */
export const BUILTIN_PROVIDER = 'builtin';

/** The page where staff connect carrier accounts (menu id 137). */
export const CARRIER_ACCOUNTS_PAGE = '/carrierAccounts';

export const CARRIER_KINDS = ['ups', 'karrio'] as const;
export type CarrierKind = (typeof CARRIER_KINDS)[number];

/**
 * Where an account's calls go: the carrier's production service, its test service, or any base URL
 * (a self-hosted Karrio, a proxy, a mock in the tests).
 */
export const CARRIER_ENVIRONMENTS = ['production', 'test', 'custom'] as const;
export type CarrierEnvironment = (typeof CARRIER_ENVIRONMENTS)[number];

/** The carriers' own base URLs; Karrio has no public test service, its cloud serves both. */
export const CARRIER_BASE_URLS: Record<CarrierKind, Record<Exclude<CarrierEnvironment, 'custom'>, string>> = {
  ups: { production: 'https://onlinetools.ups.com', test: 'https://wwwcie.ups.com' },
  karrio: { production: 'https://api.karrio.io', test: 'https://api.karrio.io' },
};

/** What each kind of account signs in with. Every field is kept encrypted and never shown again. */
export const CARRIER_CREDENTIAL_FIELDS = {
  ups: ['clientId', 'clientSecret', 'accountNumber'],
  karrio: ['apiKey'],
} as const satisfies Record<CarrierKind, readonly string[]>;

const secret = (max: number) => str().trim().min(1).max(max);

export const upsCredentials = z.object({
  clientId: secret(200),
  clientSecret: secret(200),
  /** The UPS account (shipper) number: rates are negotiated for it and shipments are billed to it. */
  accountNumber: str()
    .trim()
    .regex(/^[A-Za-z0-9]{6}$/, { error: 'validation.invalid' }),
});
export const karrioCredentials = z.object({ apiKey: secret(500) });
export type UpsCredentials = z.infer<typeof upsCredentials>;
export type KarrioCredentials = z.infer<typeof karrioCredentials>;
export type CarrierCredentials = UpsCredentials | KarrioCredentials;

export const carrierCredentialSchemas = { ups: upsCredentials, karrio: karrioCredentials } as const;

/** Milliseconds an account's calls may take before they count as failed. */
export const CARRIER_TIMEOUT_MS = { min: 1_000, max: 60_000, default: 10_000 } as const;

const baseUrlField = str()
  .trim()
  .max(300)
  .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, { error: 'validation.baseUrl' });

const accountFields = {
  label: str().trim().min(1).max(60),
  environment: z.enum(CARRIER_ENVIRONMENTS),
  /** Only for `custom`; ignored otherwise. */
  baseUrl: baseUrlField.optional(),
  timeoutMs: z.number().int().min(CARRIER_TIMEOUT_MS.min).max(CARRIER_TIMEOUT_MS.max).optional(),
  enabled: z.boolean().optional(),
};

const needsBaseUrl = (body: { environment: CarrierEnvironment; baseUrl?: string | undefined }) =>
  body.environment !== 'custom' || Boolean(body.baseUrl);
const baseUrlIssue = { error: 'validation.required', path: ['baseUrl'] };

export const carrierAccountCreateBody = z.discriminatedUnion('kind', [
  z
    .object({ kind: z.literal('ups'), ...accountFields, credentials: upsCredentials })
    .refine(needsBaseUrl, baseUrlIssue),
  z
    .object({ kind: z.literal('karrio'), ...accountFields, credentials: karrioCredentials })
    .refine(needsBaseUrl, baseUrlIssue),
]);
export type CarrierAccountCreateBody = z.infer<typeof carrierAccountCreateBody>;

/**
 * Changes to an account; credentials only when they change (all of the kind's fields together), as
 * the page never has the old ones to send back.
 */
export const carrierAccountUpdateBody = z
  .object({
    id: idField(),
    ...accountFields,
    credentials: z.union([upsCredentials, karrioCredentials]).optional(),
  })
  .refine(needsBaseUrl, baseUrlIssue);
export type CarrierAccountUpdateBody = z.infer<typeof carrierAccountUpdateBody>;

export const carrierAccountIdBody = z.object({ id: idField() });

export const carrierAccountListQuery = pageQuery.extend({
  /** Part of the label. */
  keyword: str().trim().max(60).optional(),
  kind: z.enum(CARRIER_KINDS).optional(),
  enabled: z.boolean().optional(),
});
export type CarrierAccountListQuery = z.infer<typeof carrierAccountListQuery>;

/**
 * What a label is printed as: a 4 × 6 PDF page, or ZPL for a thermal printer. A carrier channel buys
 * its labels in one of them.
 */
export const LABEL_FORMATS = ['pdf', 'zpl'] as const;
export type LabelFormat = (typeof LABEL_FORMATS)[number];

/** Why a connection test or a call failed, as the reader is told it. */
export const CARRIER_FAILURES = [
  'credentials',
  'unreachable',
  'timeout',
  'refused',
  'malformed',
  'unavailable',
] as const;
export type CarrierFailure = (typeof CARRIER_FAILURES)[number];

/* ----- responses ----- */

export const carrierConnectionTestView = z.object({
  ok: z.boolean(),
  failure: z.enum(CARRIER_FAILURES).nullable(),
  /** The failure in the reader's language; the carrier's own words are kept for staff in `detail`. */
  message: z.string(),
  detail: z.string().nullable(),
  testedAt: timestamp,
  tookMs: z.number().int(),
});
export type CarrierConnectionTestView = z.infer<typeof carrierConnectionTestView>;

export const carrierAccountView = z.object({
  id: z.number().int(),
  kind: z.enum(CARRIER_KINDS),
  label: z.string(),
  environment: z.enum(CARRIER_ENVIRONMENTS),
  /** Where calls go, worked out from the environment. */
  baseUrl: z.string(),
  timeoutMs: z.number().int(),
  enabled: z.boolean(),
  /** Which credential fields are kept (never their values). */
  credentialFields: z.array(z.string()),
  credentialsUpdatedAt: timestamp,
  lastTest: carrierConnectionTestView.nullable(),
  /** The tracking webhook the portal registered at the account's Karrio server, if any. */
  webhook: z.object({ url: z.string(), registeredAt: timestamp }).nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
});
export type CarrierAccountView = z.infer<typeof carrierAccountView>;

export const carrierAccountListView = pageOf(carrierAccountView);

/* ----- tracking webhooks ----- */

/** Where a Karrio account's tracking webhook is sent and how it is signed, for staff setting it up. */
export const carrierWebhookView = z.object({
  /** The path on the tenant's own host. */
  path: z.string(),
  /** The header carrying `sha256=` and the hex HMAC-SHA256 of the raw body. */
  header: z.string(),
  secret: z.string(),
});
export type CarrierWebhookView = z.infer<typeof carrierWebhookView>;

/** The answer to a carrier's webhook: the tracking events it added to a waybill. */
export const carrierWebhookAnswer = z.object({ recorded: z.number().int() });
