ALTER TABLE "express_waybills" ADD COLUMN "return_of_id" bigint;--> statement-breakpoint
ALTER TABLE "express_waybills" ADD COLUMN "return_of_no" text;--> statement-breakpoint
CREATE UNIQUE INDEX "express_waybills_return_of" ON "express_waybills" USING btree ("tenant_id","return_of_id");