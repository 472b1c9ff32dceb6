DROP INDEX "bounce_bills_order";--> statement-breakpoint
DROP INDEX "work_orders_order";--> statement-breakpoint
ALTER TABLE "bounce_bills" ADD COLUMN "line" text DEFAULT 'truck' NOT NULL;--> statement-breakpoint
ALTER TABLE "work_orders" ADD COLUMN "line" text DEFAULT 'truck' NOT NULL;--> statement-breakpoint
CREATE INDEX "bounce_bills_order" ON "bounce_bills" USING btree ("tenant_id","line","order_id");--> statement-breakpoint
CREATE INDEX "work_orders_order" ON "work_orders" USING btree ("tenant_id","line","order_id");