CREATE TABLE "truck_products" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "truck_products_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"code" text NOT NULL,
	"name" text NOT NULL,
	"name_en" text NOT NULL,
	"carrier" text NOT NULL,
	"service_level" text DEFAULT 'standard' NOT NULL,
	"mode" text NOT NULL,
	"transit_days_min" integer NOT NULL,
	"transit_days_max" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"organisation_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"insurance" jsonb DEFAULT '{"rateBp":30,"minimumPremium":2500,"deductible":10000}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "truck_products_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "truck_products_code" ON "truck_products" USING btree ("tenant_id","code");