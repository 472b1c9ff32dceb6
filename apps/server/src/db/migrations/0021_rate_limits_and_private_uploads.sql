CREATE TABLE "rate_limit_hits" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone DEFAULT now() NOT NULL,
	"count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "public" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "record" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "uploads_record" ON "uploads" USING btree ("tenant_id","record");--> statement-breakpoint
UPDATE "uploads" u SET "public" = true, "record" = 'site:' || t."id", "claimed_at" = now() FROM "tenants" t WHERE u."tenant_id" = t."id" AND u."record" IS NULL AND u."key" IN (substring(t."branding"->>'logoUrl' from '^/api/uploads/(.+)$'), substring(t."branding"->>'logoCollapsedUrl' from '^/api/uploads/(.+)$'), substring(t."branding"->>'faviconUrl' from '^/api/uploads/(.+)$'));--> statement-breakpoint
UPDATE "uploads" u SET "record" = 'recharge:' || r."id", "claimed_at" = now() FROM "recharges" r WHERE u."tenant_id" = r."tenant_id" AND u."record" IS NULL AND u."key" = substring(r."screenshot_url" from '^/api/uploads/(.+)$');--> statement-breakpoint
UPDATE "uploads" u SET "record" = 'truck-order:' || o."id", "claimed_at" = now() FROM "truck_orders" o WHERE u."tenant_id" = o."tenant_id" AND u."record" IS NULL AND u."key" = substring(o."order_file_url" from '^/api/uploads/(.+)$');--> statement-breakpoint
UPDATE "uploads" u SET "record" = 'bounce-bill:' || b."id", "claimed_at" = now() FROM "bounce_bills" b WHERE u."tenant_id" = b."tenant_id" AND u."record" IS NULL AND u."key" = substring(b."proof_url" from '^/api/uploads/(.+)$');--> statement-breakpoint
UPDATE "uploads" u SET "record" = 'work-order:' || w."id", "claimed_at" = now() FROM "work_orders" w, jsonb_array_elements_text(w."proof_urls") AS p("url") WHERE u."tenant_id" = w."tenant_id" AND u."record" IS NULL AND u."key" = substring(p."url" from '^/api/uploads/(.+)$');--> statement-breakpoint
UPDATE "uploads" u SET "record" = 'work-order:' || m."work_order_id", "claimed_at" = now() FROM "work_order_messages" m, jsonb_array_elements_text(m."attachments") AS a("url") WHERE u."tenant_id" = m."tenant_id" AND u."record" IS NULL AND u."key" = substring(a."url" from '^/api/uploads/(.+)$');--> statement-breakpoint
UPDATE "uploads" u SET "record" = 'user:' || s."id", "claimed_at" = now() FROM "users" s WHERE u."tenant_id" = s."tenant_id" AND u."record" IS NULL AND u."key" = substring(s."avatar_url" from '^/api/uploads/(.+)$');--> statement-breakpoint
UPDATE "uploads" u SET "record" = 'organisation:' || s."organisation_id", "claimed_at" = now() FROM "users" s WHERE u."tenant_id" = s."tenant_id" AND u."record" IS NULL AND s."organisation_id" IS NOT NULL AND u."key" = substring(s."profile"->>'licenseUrl' from '^/api/uploads/(.+)$');--> statement-breakpoint
UPDATE "uploads" u SET "record" = 'invoice:' || i."id", "claimed_at" = now() FROM "invoices" i WHERE u."tenant_id" = i."tenant_id" AND u."record" IS NULL AND u."key" = substring(i."file_url" from '^/api/uploads/(.+)$');--> statement-breakpoint
UPDATE "uploads" SET "record" = 'licence:pending' WHERE "record" IS NULL AND "user_id" IS NULL;
