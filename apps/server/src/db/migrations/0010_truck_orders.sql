CREATE TABLE "serial_counters" (
	"tenant_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"day" text NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "serial_counters_tenant_id_kind_day_pk" PRIMARY KEY("tenant_id","kind","day")
);
--> statement-breakpoint
CREATE TABLE "truck_order_events" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "truck_order_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" bigint NOT NULL,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text,
	"actor_id" bigint,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "truck_order_events_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "truck_orders" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "truck_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_no" text NOT NULL,
	"customer_order_no" text DEFAULT '' NOT NULL,
	"query_code" text NOT NULL,
	"organisation_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"quote_id" bigint,
	"task_id" bigint,
	"product_id" bigint,
	"carrier" text NOT NULL,
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"order_type" text DEFAULT 'regular' NOT NULL,
	"shipment" jsonb NOT NULL,
	"quote" jsonb NOT NULL,
	"levels" jsonb NOT NULL,
	"total_cents" bigint DEFAULT 0 NOT NULL,
	"freight_cents" bigint DEFAULT 0 NOT NULL,
	"fuel_cents" bigint DEFAULT 0 NOT NULL,
	"surcharge_cents" bigint DEFAULT 0 NOT NULL,
	"premium_cents" bigint DEFAULT 0 NOT NULL,
	"insured_amount_cents" bigint DEFAULT 0 NOT NULL,
	"cost_price_cents" bigint DEFAULT 0 NOT NULL,
	"branch_price_cents" bigint,
	"agent_price_cents" bigint,
	"paid_cents" bigint DEFAULT 0 NOT NULL,
	"paid_at" timestamp with time zone,
	"origin" text NOT NULL,
	"destination" text NOT NULL,
	"transit_days_min" integer NOT NULL,
	"transit_days_max" integer NOT NULL,
	"pickup_code" text NOT NULL,
	"delivery_code" text NOT NULL,
	"carrier_info" text DEFAULT '' NOT NULL,
	"reject_reason" text DEFAULT '' NOT NULL,
	"shipping_note" text DEFAULT '' NOT NULL,
	"receiving_note" text DEFAULT '' NOT NULL,
	"extra_note" text DEFAULT '' NOT NULL,
	"order_file_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "truck_orders_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "quotation_task_events" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "quotation_task_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"task_id" bigint NOT NULL,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor_id" bigint NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotation_task_events_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "quotation_tasks" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "quotation_tasks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"task_no" text NOT NULL,
	"quote_id" bigint NOT NULL,
	"organisation_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"product_id" bigint,
	"carrier" text DEFAULT '' NOT NULL,
	"transit_days_min" bigint,
	"transit_days_max" bigint,
	"result" jsonb,
	"valid_until" timestamp with time zone,
	"priced_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quotation_tasks_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "truck_quotes" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "truck_quotes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"quote_no" text NOT NULL,
	"organisation_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"shipment" jsonb NOT NULL,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"manual_reason" text,
	"priced_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "truck_quotes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "truck_lanes" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "truck_lanes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"product_id" bigint NOT NULL,
	"origin" text NOT NULL,
	"destination" text NOT NULL,
	"ltl" jsonb,
	"ftl" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "truck_lanes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "truck_products" ADD COLUMN "accessorial_fees" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
CREATE INDEX "truck_order_events_order" ON "truck_order_events" USING btree ("tenant_id","order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "truck_orders_no" ON "truck_orders" USING btree ("tenant_id","order_no");--> statement-breakpoint
CREATE INDEX "truck_orders_time" ON "truck_orders" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "truck_orders_status_time" ON "truck_orders" USING btree ("tenant_id","status","created_at");--> statement-breakpoint
CREATE INDEX "truck_orders_org_time" ON "truck_orders" USING btree ("tenant_id","organisation_id","created_at");--> statement-breakpoint
CREATE INDEX "truck_orders_customer_no" ON "truck_orders" USING btree ("tenant_id","customer_order_no");--> statement-breakpoint
CREATE INDEX "quotation_task_events_task" ON "quotation_task_events" USING btree ("tenant_id","task_id");--> statement-breakpoint
CREATE UNIQUE INDEX "quotation_tasks_no" ON "quotation_tasks" USING btree ("tenant_id","task_no");--> statement-breakpoint
CREATE INDEX "quotation_tasks_status" ON "quotation_tasks" USING btree ("tenant_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "truck_quotes_no" ON "truck_quotes" USING btree ("tenant_id","quote_no");--> statement-breakpoint
CREATE INDEX "truck_quotes_org_time" ON "truck_quotes" USING btree ("tenant_id","organisation_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "truck_lanes_product_ends" ON "truck_lanes" USING btree ("tenant_id","product_id","origin","destination");--> statement-breakpoint
CREATE INDEX "truck_lanes_product" ON "truck_lanes" USING btree ("tenant_id","product_id");