-- The customer's own number in capitals, in a column of its own: an index on upper(...) cannot serve a
-- search under row-level security, where upper (not leakproof) is checked only after the policy.
DROP INDEX "truck_orders_customer_no_prefix";--> statement-breakpoint
ALTER TABLE "truck_orders" ADD COLUMN "customer_order_no_upper" text GENERATED ALWAYS AS (upper(customer_order_no)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "truck_orders_customer_no_prefix" ON "truck_orders" USING btree ("tenant_id","customer_order_no_upper" text_pattern_ops);