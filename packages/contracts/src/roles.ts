import { z } from 'zod';
import { pageQuery } from './api.ts';

export const roleListQuery = pageQuery.extend({ keyword: z.string().trim().max(100).optional() });

export const roleSaveBody = z.object({
  id: z.number().int().positive().optional(),
  name: z.string().trim().min(1).max(50),
  nameEn: z.string().trim().min(1).max(50),
  description: z.string().trim().max(200).default(''),
  descriptionEn: z.string().trim().max(200).default(''),
  menuIds: z.array(z.number().int().positive()).max(500),
  buttonKeys: z.array(z.string().min(1).max(100)).max(500),
});
export type RoleSaveBody = z.infer<typeof roleSaveBody>;

export const idBody = z.object({ id: z.coerce.number().int().positive() });

export const staffListQuery = pageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
  enabled: z.boolean().optional(),
  roleId: z.number().int().positive().optional(),
});

export const staffSaveBody = z.object({
  id: z.number().int().positive().optional(),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: 'validation.email' })),
  name: z.string().trim().min(1).max(50),
  phone: z.union([z.string().regex(/^1\d{10}$/, { error: 'validation.phone' }), z.literal('')]).default(''),
  password: z.string().min(6, { error: 'validation.passwordMin' }).max(128).optional(),
  roleIds: z.array(z.number().int().positive()).min(1).max(50),
});

export const staffStatusBody = z.object({ id: z.number().int().positive(), enabled: z.boolean() });

export const operationLogQuery = pageQuery.extend({
  keyword: z.string().trim().max(100).optional(),
  action: z.string().trim().max(100).optional(),
  from: z.coerce.date().optional(),
  to: z.coerce.date().optional(),
  result: z.enum(['success', 'failure']).optional(),
});
