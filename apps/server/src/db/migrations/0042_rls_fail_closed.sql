-- Row-level security fails closed. Until now a connection with `app.tenant_id` unset or empty was
-- taken for system work and saw every tenant's rows, so a connection that forgot to say whose work it
-- did saw everything. Now a connection sees one tenant's rows when `app.tenant_id` names it, every row
-- only when it declares system work with `app.system = on` (db/tenant-scope.ts, runAsSystem), and no
-- row at all when it set neither. One policy per table keeps its name; every table that has one is
-- changed, whichever migration made it.
DO $$
DECLARE
  t record;
BEGIN
  FOR t IN
    SELECT p.tablename FROM pg_policies p
    WHERE p.schemaname = current_schema() AND p.policyname = 'tenant_isolation'
  LOOP
    EXECUTE format(
      'ALTER POLICY tenant_isolation ON %I USING ('
        || 'tenant_id = (SELECT nullif(current_setting(''app.tenant_id'', true), '''')::bigint) '
        || 'OR (SELECT coalesce(current_setting(''app.system'', true), '''') = ''on''))',
      t.tablename
    );
  END LOOP;
END $$;
