ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_secret" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_secret_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_created" ON "webhook_deliveries" USING btree ("created_at");--> statement-breakpoint
-- API keys (151) and webhooks (152) came after the tenants of earlier releases were made: their built-in
-- customer-side roles get the two pages, as a new tenant's do (roles staff made themselves are theirs).
INSERT INTO "role_grants" ("tenant_id", "role_id", "menu_id", "button_key")
SELECT r."tenant_id", r."id", m.id, '' FROM "roles" r CROSS JOIN (VALUES (151), (152)) AS m(id)
WHERE r."builtin" AND r."code" IN ('branch', 'agent', 'customer')
ON CONFLICT DO NOTHING;
