CREATE TABLE "changelog_entries" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "changelog_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"body" text NOT NULL,
	"published_at" timestamp with time zone NOT NULL,
	"created_by" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "changelog_entries_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "changelog_reads" (
	"tenant_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "changelog_reads_tenant_id_user_id_pk" PRIMARY KEY("tenant_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "tenant_hosts" (
	"tenant_id" bigint NOT NULL,
	"host" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenant_hosts_tenant_id_host_pk" PRIMARY KEY("tenant_id","host")
);
--> statement-breakpoint
CREATE INDEX "changelog_published" ON "changelog_entries" USING btree ("tenant_id","published_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tenant_hosts_host" ON "tenant_hosts" USING btree ("host");--> statement-breakpoint
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
