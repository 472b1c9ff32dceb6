import type { Language } from '@freight/contracts/api';
import { localizeIssues } from '@freight/contracts/validation';
import type { FormRule } from 'antd';
import i18n from '../i18n/index.ts';

type Issues = Parameters<typeof localizeIssues>[0];

/** What the rule needs of a zod schema (the web app does not depend on zod itself). */
interface FieldSchema {
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: Issues } };
}

/**
 * A form rule from a shared zod field (`@freight/contracts/validation`), so the form refuses exactly what
 * the server would, with the server's wording. `field` names the value the way the API does; it picks
 * the label the message uses. Empty values pass: whether a field is required is the form's own rule.
 */
export function fieldRule(schema: FieldSchema, field: string): FormRule {
  return {
    validator: async (_, value: unknown) => {
      if (value === undefined || value === null || value === '') return;
      const result = schema.safeParse(value);
      if (result.success) return;
      const issues = result.error.issues.map((issue) => ({ ...issue, path: [field] }));
      const [first] = localizeIssues(issues, i18n.language as Language);
      throw new Error(first?.message);
    },
  };
}

/** SPEC section 5: the confirmation must repeat the password (两次输入密码不一致), as the server checks too. */
export const matchesPassword: FormRule = ({ getFieldValue }) => ({
  validator: async (_, value: unknown) => {
    if (value && getFieldValue('password') !== value) throw new Error(i18n.t('validation.passwordMismatch'));
  },
});

/**
 * The form's own "required" rule, worded as the server words it. Blank text counts as empty; numbers,
 * choices and lists are checked as they are (a built-in `whitespace` check would treat them as text).
 */
export function requiredRule(label: string): FormRule {
  const message = i18n.t('validation.required', { field: label });
  return {
    required: true,
    validator: async (_, value: unknown) => {
      const blank =
        value === undefined ||
        value === null ||
        (typeof value === 'string' && value.trim() === '') ||
        (Array.isArray(value) && value.length === 0);
      if (blank) throw new Error(message);
    },
  };
}
