CREATE TABLE "price_levels" (
	"tenant_id" bigint NOT NULL,
	"organisation_id" bigint NOT NULL,
	"line" text NOT NULL,
	"product_key" text DEFAULT '' NOT NULL,
	"markup_percent_bp" integer DEFAULT 0 NOT NULL,
	"markup_fixed_cents" bigint DEFAULT 0 NOT NULL,
	"updated_by" bigint,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "price_levels_tenant_id_organisation_id_line_product_key_pk" PRIMARY KEY("tenant_id","organisation_id","line","product_key")
);
