ALTER TABLE "express_waybills" ADD COLUMN "carrier_account_id" bigint;--> statement-breakpoint
ALTER TABLE "express_waybills" ADD COLUMN "carrier_service" text;--> statement-breakpoint
ALTER TABLE "express_waybills" ADD COLUMN "label_key" text;--> statement-breakpoint
ALTER TABLE "express_waybills" ADD COLUMN "label_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "express_waybills" ADD COLUMN "label_file" text;--> statement-breakpoint
ALTER TABLE "express_waybills" ADD COLUMN "label_failure" text;--> statement-breakpoint
ALTER TABLE "express_waybills" ADD COLUMN "carrier_error" text;--> statement-breakpoint
CREATE INDEX "express_waybills_carrier_open" ON "express_waybills" USING btree ("status","tenant_id","id") WHERE "express_waybills"."carrier_account_id" is not null;