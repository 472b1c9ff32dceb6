ALTER TABLE "uploads" ADD COLUMN "client" text;--> statement-breakpoint
CREATE INDEX "uploads_pending_client" ON "uploads" USING btree ("tenant_id","client") WHERE "uploads"."client" is not null;