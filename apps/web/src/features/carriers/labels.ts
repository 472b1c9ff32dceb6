import type { Language } from '@freight/contracts/api';
import { fieldLabel } from '@freight/contracts/validation';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { fieldRule } from '../../lib/form-rules.ts';

/** The routes word this page's fields in the `carrierAccount` scope of the contract's labels. */
const LABEL_SCOPE = 'carrierAccount';

/** A field's name as the contract labels it (`carrierAccount:*`), in the reader's language. */
export function useFieldLabel(): (field: string) => string {
  const { i18n } = useTranslation();
  const language: Language = i18n.language === 'en-US' ? 'en-US' : 'zh-CN';
  return (field) => fieldLabel(field, language, LABEL_SCOPE);
}

type FieldSchema = Parameters<typeof fieldRule>[0];

/**
 * The contract's check of one field. The scoped name makes its message name the field as the server's
 * answer would ("UPS account number", not "accountNumber").
 */
export const accountRule = (schema: FieldSchema, field: string) =>
  fieldRule(schema, `${LABEL_SCOPE}:${field}`);

export const formatTime = (value: string | null) => (value ? dayjs(value).format('YYYY-MM-DD HH:mm') : null);
