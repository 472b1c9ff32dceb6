// The tables of every module, for typed queries and the migration history.
export * from '../modules/accounts/schema.ts';
export * from '../modules/addresses/schema.ts';
export * from '../modules/auth/schema.ts';
export * from '../modules/customers/schema.ts';
export * from '../modules/invoices/schema.ts';
export * from '../modules/mail/schema.ts';
export * from '../modules/notices/schema.ts';
export * from '../modules/numbering/schema.ts';
export * from '../modules/oplog/schema.ts';
export * from '../modules/orders/schema.ts';
export * from '../modules/quotes/schema.ts';
export * from '../modules/rbac/schema.ts';
export * from '../modules/recharge/schema.ts';
export * from '../modules/site/schema.ts';
export * from '../modules/truck/schema.ts';
export * from '../modules/uploads/schema.ts';
