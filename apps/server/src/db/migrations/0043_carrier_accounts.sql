CREATE TABLE "carrier_accounts" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "carrier_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"environment" text NOT NULL,
	"base_url" text,
	"timeout_ms" integer NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"credentials" text NOT NULL,
	"credentials_updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_test_at" timestamp with time zone,
	"last_test_failure" text,
	"last_test_detail" text,
	"last_test_took_ms" integer,
	"created_by" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "carrier_accounts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "carrier_accounts_label" ON "carrier_accounts" USING btree ("tenant_id","label");--> statement-breakpoint
-- Row-level security by tenant, failing closed as every tenant table does (0042).
ALTER TABLE "carrier_accounts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "carrier_accounts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "carrier_accounts" USING (
  tenant_id = (SELECT nullif(current_setting('app.tenant_id', true), '')::bigint)
  OR (SELECT coalesce(current_setting('app.system', true), '') = 'on')
);
