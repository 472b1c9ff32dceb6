CREATE TABLE "express_channels" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "express_channels_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"product_id" bigint NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"name_en" text NOT NULL,
	"carrier" text NOT NULL,
	"service" text NOT NULL,
	"provider" text DEFAULT 'builtin' NOT NULL,
	"scope" text NOT NULL,
	"unit_system" text NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"dim_divisor" integer NOT NULL,
	"transit_days_min" integer NOT NULL,
	"transit_days_max" integer NOT NULL,
	"max_weight" double precision NOT NULL,
	"max_length" double precision NOT NULL,
	"max_length_girth" double precision NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"organisation_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"surcharges" jsonb NOT NULL,
	"price_table" jsonb,
	"prices_updated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "express_channels_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "express_products" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "express_products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"name" text NOT NULL,
	"name_en" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"description_en" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"organisation_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "express_products_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "express_zone_rows" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "express_zone_rows_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel_id" bigint NOT NULL,
	"origin_from" text NOT NULL,
	"origin_to" text NOT NULL,
	"dest_from" text DEFAULT '' NOT NULL,
	"dest_to" text DEFAULT '' NOT NULL,
	"country" text DEFAULT '' NOT NULL,
	"zone" text NOT NULL,
	CONSTRAINT "express_zone_rows_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "express_quotes" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "express_quotes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"quote_no" text NOT NULL,
	"organisation_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"shipment" jsonb NOT NULL,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"selected_channel_id" bigint,
	"priced_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "express_quotes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "express_waybill_events" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "express_waybill_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"waybill_id" bigint NOT NULL,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor_id" bigint,
	"note" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "express_waybill_events_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "express_waybills" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "express_waybills_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"waybill_no" text NOT NULL,
	"tracking_no" text NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"organisation_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"quote_id" bigint,
	"channel_id" bigint NOT NULL,
	"channel" jsonb NOT NULL,
	"status" text NOT NULL,
	"shipment" jsonb NOT NULL,
	"breakdown" jsonb NOT NULL,
	"levels" jsonb NOT NULL,
	"total_cents" bigint DEFAULT 0 NOT NULL,
	"cost_cents" bigint DEFAULT 0 NOT NULL,
	"paid_cents" bigint DEFAULT 0 NOT NULL,
	"paid_at" timestamp with time zone,
	"carrier_reference" text,
	"print_count" integer DEFAULT 0 NOT NULL,
	"printed_at" timestamp with time zone,
	"refund_reason" text DEFAULT '' NOT NULL,
	"frozen_from" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "express_waybills_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "express_channels_code" ON "express_channels" USING btree ("tenant_id","code");--> statement-breakpoint
CREATE INDEX "express_channels_product" ON "express_channels" USING btree ("tenant_id","product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "express_products_code" ON "express_products" USING btree ("tenant_id","code");--> statement-breakpoint
CREATE INDEX "express_zone_rows_channel" ON "express_zone_rows" USING btree ("tenant_id","channel_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "express_quotes_no" ON "express_quotes" USING btree ("tenant_id","quote_no");--> statement-breakpoint
CREATE INDEX "express_quotes_org_time" ON "express_quotes" USING btree ("tenant_id","organisation_id","created_at");--> statement-breakpoint
CREATE INDEX "express_waybill_events_waybill" ON "express_waybill_events" USING btree ("tenant_id","waybill_id");--> statement-breakpoint
CREATE UNIQUE INDEX "express_waybills_no" ON "express_waybills" USING btree ("tenant_id","waybill_no");--> statement-breakpoint
CREATE UNIQUE INDEX "express_waybills_tracking" ON "express_waybills" USING btree ("tenant_id","tracking_no");--> statement-breakpoint
CREATE UNIQUE INDEX "express_waybills_quote" ON "express_waybills" USING btree ("tenant_id","quote_id");--> statement-breakpoint
CREATE INDEX "express_waybills_org_time" ON "express_waybills" USING btree ("tenant_id","organisation_id","id");--> statement-breakpoint
CREATE INDEX "express_waybills_status" ON "express_waybills" USING btree ("tenant_id","status","id");