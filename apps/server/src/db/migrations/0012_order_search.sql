DROP INDEX "truck_orders_customer_no";--> statement-breakpoint
CREATE INDEX "truck_orders_no_prefix" ON "truck_orders" USING btree ("tenant_id","order_no" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "truck_orders_query_code_prefix" ON "truck_orders" USING btree ("tenant_id","query_code" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "truck_orders_customer_no_prefix" ON "truck_orders" USING btree ("tenant_id",upper("customer_order_no") text_pattern_ops);