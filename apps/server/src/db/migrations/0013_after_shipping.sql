CREATE TABLE "bounce_bills" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "bounce_bills_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"bill_no" text NOT NULL,
	"order_id" bigint NOT NULL,
	"order_no" text NOT NULL,
	"organisation_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"type" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"declared" text DEFAULT '' NOT NULL,
	"actual" text DEFAULT '' NOT NULL,
	"description" text NOT NULL,
	"proof_url" text,
	"status" text NOT NULL,
	"created_by" bigint NOT NULL,
	"charged_at" timestamp with time zone,
	"cancel_reason" text DEFAULT '' NOT NULL,
	"work_order_no" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bounce_bills_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "work_order_events" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "work_order_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"work_order_id" bigint NOT NULL,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"operator_id" bigint NOT NULL,
	"side" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_order_events_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "work_order_messages" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "work_order_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"work_order_id" bigint NOT NULL,
	"author_id" bigint NOT NULL,
	"side" text NOT NULL,
	"body" text NOT NULL,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_order_messages_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "work_orders" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "work_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"work_order_no" text NOT NULL,
	"order_id" bigint NOT NULL,
	"order_no" text NOT NULL,
	"organisation_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"bill_id" bigint,
	"category" text NOT NULL,
	"transaction_item" text NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	"description" text NOT NULL,
	"proof_urls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"consumption_type" text DEFAULT 'none' NOT NULL,
	"result_amount_cents" bigint DEFAULT 0 NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"operator_id" bigint,
	"processed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "work_orders_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "bounce_bills_no" ON "bounce_bills" USING btree ("tenant_id","bill_no");--> statement-breakpoint
CREATE INDEX "bounce_bills_time" ON "bounce_bills" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "bounce_bills_org_time" ON "bounce_bills" USING btree ("tenant_id","organisation_id","created_at");--> statement-breakpoint
CREATE INDEX "bounce_bills_order" ON "bounce_bills" USING btree ("tenant_id","order_id");--> statement-breakpoint
CREATE INDEX "work_order_events_wo" ON "work_order_events" USING btree ("tenant_id","work_order_id","id");--> statement-breakpoint
CREATE INDEX "work_order_messages_wo" ON "work_order_messages" USING btree ("tenant_id","work_order_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "work_orders_no" ON "work_orders" USING btree ("tenant_id","work_order_no");--> statement-breakpoint
CREATE INDEX "work_orders_time" ON "work_orders" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "work_orders_status_time" ON "work_orders" USING btree ("tenant_id","status","created_at");--> statement-breakpoint
CREATE INDEX "work_orders_org_time" ON "work_orders" USING btree ("tenant_id","organisation_id","created_at");--> statement-breakpoint
CREATE INDEX "work_orders_order" ON "work_orders" USING btree ("tenant_id","order_id");--> statement-breakpoint
CREATE INDEX "ledger_reference" ON "ledger_entries" USING btree ("tenant_id","ref_id");