import type { Language } from '@freight/contracts/api';
import type { FormRule } from 'antd';
import i18n from '../i18n/index.ts';

type PhoneRules = typeof import('@freight/contracts/phone');
let loading: Promise<PhoneRules> | null = null;

/**
 * The phone rules of the contracts (the server's own), loaded with the first number checked: their
 * numbering plans are large, and only the forms that take a phone number need them.
 */
export function phoneRules(): Promise<PhoneRules> {
  loading ??= import('@freight/contracts/phone');
  return loading;
}

/** A phone number with a dial code chosen beside it (field `dialCodeField` of the same form). */
export function phoneForDialCodeRule(
  label: () => string,
  dialCodeField: string,
  fallbackDialCode: string,
): FormRule {
  return ({ getFieldValue }) => ({
    validator: async (_, value: unknown) => {
      if (typeof value !== 'string' || value.trim() === '') return;
      const dialCode = String(getFieldValue(dialCodeField) ?? fallbackDialCode);
      const { isValidPhone, phoneMessageKey } = await phoneRules();
      if (!isValidPhone(value, dialCode))
        throw new Error(i18n.t(phoneMessageKey(dialCode), { field: label() }));
    },
  });
}

/** A phone number with no dial code beside it (profile, staff): worded as the server words it. */
export const phoneRule: FormRule = {
  validator: async (_, value: unknown) => {
    if (value === undefined || value === null || value === '') return;
    const [{ phoneField }, { localizeIssues }] = await Promise.all([
      phoneRules(),
      import('@freight/contracts/validation'),
    ]);
    const result = phoneField.safeParse(value);
    if (result.success) return;
    const issues = result.error.issues.map((issue) => ({ ...issue, path: ['phone'] }));
    throw new Error(localizeIssues(issues, i18n.language as Language)[0]?.message);
  },
};
