-- Every key and unique index starts with the tenant, so a database spread by tenant (Citus) keeps each
-- row, and each lookup, on its tenant's node.
DROP INDEX "api_keys_hash";--> statement-breakpoint
DROP INDEX "uploads_key";--> statement-breakpoint
ALTER TABLE "password_resets" DROP CONSTRAINT "password_resets_pkey";--> statement-breakpoint
ALTER TABLE "sessions" DROP CONSTRAINT "sessions_pkey";--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_tenant_id_token_hash_pk" PRIMARY KEY("tenant_id","token_hash");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_tenant_id_token_hash_pk" PRIMARY KEY("tenant_id","token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_hash" ON "api_keys" USING btree ("tenant_id","key_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "uploads_key" ON "uploads" USING btree ("tenant_id","key");
