CREATE TABLE "truck_order_counts" (
	"tenant_id" bigint NOT NULL,
	"organisation_id" bigint NOT NULL,
	"status" text NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "truck_order_counts_tenant_id_organisation_id_status_pk" PRIMARY KEY("tenant_id","organisation_id","status")
);
--> statement-breakpoint
CREATE INDEX "truck_orders_org_status_time" ON "truck_orders" USING btree ("tenant_id","organisation_id","status","created_at");--> statement-breakpoint
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
