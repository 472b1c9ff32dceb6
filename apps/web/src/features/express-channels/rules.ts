import type { FormRule } from 'antd';
import { fieldRule } from '../../lib/form-rules.ts';

type FieldSchema = Parameters<typeof fieldRule>[0];

/**
 * A shared zod field as a form rule, worded with the form's own label. `fieldRule` names a field by its
 * catalogue label, or by the name it is given when the catalogue has none; these forms' labels are not
 * in the catalogue, so the label the user reads is the name the message uses.
 */
export const schemaRule = (schema: FieldSchema, label: string): FormRule => fieldRule(schema, label);
