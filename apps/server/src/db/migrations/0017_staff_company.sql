-- Staff were seeded with the tenant's Chinese site name as their company, which showed on the English
-- interface too; with no company of their own they are now shown the site name in their language.
UPDATE "users" u SET "company" = ''
FROM "tenants" t
WHERE u."tenant_id" = t."id" AND u."identity" = 'employee' AND u."company" IN (t."name", t."branding"->>'siteName');
