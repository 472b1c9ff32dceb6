CREATE TABLE "report_daily" (
	"tenant_id" bigint NOT NULL,
	"day" date NOT NULL,
	"line" text NOT NULL,
	"organisation_id" bigint NOT NULL,
	"product_id" bigint NOT NULL,
	"org_path" text NOT NULL,
	"branch_id" bigint,
	"agent_id" bigint,
	"orders" bigint DEFAULT 0 NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	"cost_cents" bigint DEFAULT 0 NOT NULL,
	"branch_price_cents" bigint DEFAULT 0 NOT NULL,
	"agent_price_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "report_daily_tenant_id_day_line_organisation_id_product_id_pk" PRIMARY KEY("tenant_id","day","line","organisation_id","product_id")
);
--> statement-breakpoint
CREATE INDEX "report_daily_subtree" ON "report_daily" USING btree ("tenant_id","org_path" text_pattern_ops,"day");--> statement-breakpoint
DO $$
DECLARE t record;
BEGIN
  FOR t IN
    SELECT c.table_name FROM information_schema.columns c
    JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
    WHERE c.table_schema = current_schema() AND c.column_name = 'tenant_id' AND tb.table_type = 'BASE TABLE'
      AND NOT EXISTS (SELECT 1 FROM pg_policies p WHERE p.schemaname = current_schema() AND p.tablename = c.table_name)
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t.table_name);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t.table_name);
    EXECUTE format('CREATE POLICY tenant_isolation ON %I USING ('
      || '(SELECT coalesce(current_setting(''app.tenant_id'', true), '''') = '''') '
      || 'OR tenant_id = (SELECT nullif(current_setting(''app.tenant_id'', true), '''')::bigint))', t.table_name);
  END LOOP;
END $$;
