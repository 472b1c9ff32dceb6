import { z } from 'zod';
import { LANGUAGES } from './api.ts';
import { IDENTITIES } from './identity.ts';
import { isValidPhone, phoneField, phoneMessageKey } from './phone.ts';
import {
  codeField,
  emailField,
  englishField,
  hashedPasswordField,
  passwordField,
  str,
  zipField,
} from './validation.ts';

export const verificationCodeBody = z.object({
  email: emailField,
  purpose: z.enum(['login', 'register']).default('login'),
});

export const loginFields = z.object({ email: emailField, password: hashedPasswordField, code: codeField });
/** The sign-in payload, plain or RSA-encrypted as `param` (SPEC section 7). */
export const loginBody = z.union([z.object({ param: str().min(1).max(4096) }), loginFields]);

const newPassword = {
  password: passwordField,
  confirmPassword: str().max(128),
};
const passwordsMatch = <T extends { password: string; confirmPassword: string }>(
  v: T,
  ctx: z.RefinementCtx,
) => {
  if (v.password !== v.confirmPassword)
    ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: 'validation.passwordMismatch' });
};

const requiredText = (max = 100) => str().trim().min(1).max(max);

export const registrationProfile = z.object({
  name: requiredText(50),
  surname: requiredText(50),
  /** Checked against `dialCode` by the whole body's rule below. */
  phone: requiredText(30),
  /** The country dial code chosen beside the phone number (SPEC section 9: 1 by default). */
  dialCode: str()
    .regex(/^\d{1,4}$/, { error: 'validation.invalid' })
    .default('1'),
  wechat: str().trim().max(50).optional().default(''),
  company: requiredText(100),
  address1: requiredText(200).pipe(englishField),
  address2: str().trim().max(200).pipe(englishField).optional().default(''),
  zipcode: zipField,
  city: requiredText(60).pipe(englishField),
  state: requiredText(60).pipe(englishField),
  country: requiredText(60),
  licenseUrl: str().trim().min(1).max(500),
  business: z.array(z.enum(['truck', 'express'])).min(1),
  monthlyVolume: requiredText(40),
  goodsTypes: z.array(str().trim().min(1).max(60)).min(1).max(20),
  transportMethods: z.array(str().trim().min(1).max(60)).min(1).max(10),
  preferredLocations: z.array(str().trim().min(1).max(120)).length(3),
});

/** The phone number must exist under the dial code chosen beside it. */
function phoneMatchesDialCode(v: { phone: string; dialCode?: string }, ctx: z.RefinementCtx) {
  const dialCode = v.dialCode ?? '1';
  if (!isValidPhone(v.phone, dialCode))
    ctx.addIssue({ code: 'custom', path: ['phone'], message: phoneMessageKey(dialCode) });
}

export const registerBody = registrationProfile
  .extend({
    email: emailField,
    code: codeField,
    invitationCode: str().trim().max(32).optional().default(''),
    ...newPassword,
  })
  .superRefine(passwordsMatch)
  .superRefine(phoneMatchesDialCode, {
    // Named beside the other fields' issues too, not only once they are all right.
    when: (payload) => {
      const v = payload.value as { phone?: unknown; dialCode?: unknown } | null;
      return typeof v?.phone === 'string' && v.phone.trim() !== '' && typeof (v.dialCode ?? '1') === 'string';
    },
  });
export type RegisterBody = z.infer<typeof registerBody>;

/** The registration form checks its invitation code on the first step. */
export const invitationCheckBody = z.object({ invitationCode: str().trim().min(1).max(32) });

export const retrievePasswordBody = z.union([
  z.object({ token: str().min(10).max(200), ...newPassword }).superRefine(passwordsMatch),
  z.object({ email: emailField }),
]);

export const changePasswordBody = z
  .object({ oldPassword: str().min(1).max(128), ...newPassword })
  .superRefine(passwordsMatch);

export const setLocaleBody = z.object({ locale: z.enum(['en', 'zh_CN']), token: str().max(200).optional() });

export const saveProfileBody = z.object({
  name: requiredText(50),
  phone: z.union([phoneField, z.literal('')]).default(''),
  company: str().trim().max(100).default(''),
  avatarUrl: str().trim().max(500).nullable().optional(),
});

/** Choices offered by the registration form (`/admin/auth/options`). */
export const REGISTRATION_OPTIONS = {
  business: [
    { value: 'truck', label: '卡车运输', label_en: 'Truck freight' },
    { value: 'express', label: '快递', label_en: 'Express parcels' },
  ],
  monthlyVolume: [
    { value: '<50', label: '50 票以下', label_en: 'Under 50 shipments' },
    { value: '50-200', label: '50-200 票', label_en: '50 to 200 shipments' },
    { value: '200-1000', label: '200-1000 票', label_en: '200 to 1,000 shipments' },
    { value: '>1000', label: '1000 票以上', label_en: 'Over 1,000 shipments' },
  ],
  goodsTypes: [
    { value: 'general', label: '普通货物', label_en: 'General cargo' },
    { value: 'electronics', label: '电子产品', label_en: 'Electronics' },
    { value: 'furniture', label: '家具', label_en: 'Furniture' },
    { value: 'apparel', label: '服装纺织', label_en: 'Apparel and textiles' },
    { value: 'food', label: '食品', label_en: 'Food' },
    { value: 'machinery', label: '机械设备', label_en: 'Machinery' },
    { value: 'dangerous', label: '危险品', label_en: 'Dangerous goods' },
  ],
  transportMethods: [
    { value: 'LTL', label: '零担 (LTL)', label_en: 'LTL' },
    { value: 'FTL', label: '整车 (FTL)', label_en: 'FTL' },
    { value: 'express', label: '快递', label_en: 'Express' },
  ],
} as const;

export const quotationConfigBody = z.object({
  defaultLine: z.enum(['truck', 'express']).default('truck'),
  defaultInsurance: z.boolean().default(false),
  defaultPickupAddressId: z.number().int().positive().nullable().default(null),
  defaultCurrency: z.enum(['USD', 'CNY']).default('USD'),
  /** Express channels this user's quotes leave out (new channels show until hidden). */
  hiddenChannelIds: z.array(z.number().int().positive()).max(200).default([]),
});

/* ----- responses ----- */

export const publicKeyView = z.object({ publicKey: z.string(), mockServer: z.boolean() });
export const loginView = z.object({ token: z.string() });
export const invitationCheckView = z.object({ valid: z.boolean() });
export const registeredView = z.object({ id: z.number().int() });

export const registrationOption = z.object({ value: z.string(), label: z.string(), label_en: z.string() });
export const registrationOptionsView = z.object({
  business: z.array(registrationOption).readonly(),
  monthlyVolume: z.array(registrationOption).readonly(),
  goodsTypes: z.array(registrationOption).readonly(),
  transportMethods: z.array(registrationOption).readonly(),
});

export const quotationConfigView = z.object({
  defaultLine: z.enum(['truck', 'express']),
  defaultInsurance: z.boolean(),
  defaultPickupAddressId: z.number().int().nullable(),
  defaultCurrency: z.enum(['USD', 'CNY']),
  hiddenChannelIds: z.array(z.number().int()),
});

/** The signed-in user as the shell needs them (`getInfo`). */
export const userInfoView = z.object({
  userInfo: z.object({
    id: z.number().int(),
    email: z.string(),
    name: z.string(),
    company: z.string(),
    phone: z.string(),
    identity: z.enum(IDENTITIES),
    organisationId: z.number().int().nullable(),
    avatar: z.string().nullable(),
    language: z.enum(LANGUAGES),
  }),
  /** The stored locale, `zh_CN` or `en`. */
  language: z.string(),
  /** Role codes. */
  permissions: z.array(z.string()),
  config: z.object({ showBatchOrder: z.boolean(), quotation: quotationConfigView }),
});
export const userConfigView = userInfoView.shape.config;

export const localeView = z.object({ language: z.enum(['en', 'zh_CN']) });
