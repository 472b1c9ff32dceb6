-- Row-level security by tenant, a second guard under the application's own `tenant_id` filters.
-- The server sets `app.tenant_id` on a connection before it runs a request's queries (db/tenant-scope.ts);
-- with it set, a row of another tenant is neither seen nor written. Unset or empty is system work
-- (migrations, seeding, start-up sync, sweeps), which sees every row. FORCE makes the tables' owner
-- obey too; only a superuser or a BYPASSRLS role goes around it, so production runs as neither.
-- The setting is read in a sub-select, so it is evaluated once per query rather than once per row.
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT c.table_name
    FROM information_schema.columns c
    JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
    WHERE c.table_schema = current_schema() AND c.column_name = 'tenant_id' AND tb.table_type = 'BASE TABLE'
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t.table_name);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t.table_name);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING ('
        || '(SELECT coalesce(current_setting(''app.tenant_id'', true), '''') = '''') '
        || 'OR tenant_id = (SELECT nullif(current_setting(''app.tenant_id'', true), '''')::bigint))',
      t.table_name
    );
  END LOOP;
END $$;
