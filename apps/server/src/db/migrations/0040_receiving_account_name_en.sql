ALTER TABLE "receiving_accounts" ADD COLUMN "account_name_en" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Accounts opened in the tenant's own name (as new tenants' are) read its English site name in English.
UPDATE "receiving_accounts" AS r SET "account_name_en" = coalesce(t."branding"->>'siteNameEn', '')
FROM "tenants" AS t
WHERE t."id" = r."tenant_id" AND r."account_name" = t."name" AND r."account_name_en" = '';
