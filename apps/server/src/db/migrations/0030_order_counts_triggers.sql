-- The order counts (truck_order_counts) follow truck_orders in the same transaction, whatever writes it.
-- Inserts and deletes are added up per statement (a batch of 10,000 orders is one upsert per organisation
-- and status); a change of status or organisation moves one order between two counts. Keys are written
-- in key order, so two transactions take the count rows' locks in the same order.
CREATE OR REPLACE FUNCTION truck_order_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO truck_order_counts AS c (tenant_id, organisation_id, status, n)
      SELECT tenant_id, organisation_id, status, count(*) FROM added_orders GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (tenant_id, organisation_id, status) DO UPDATE SET n = c.n + excluded.n;
  ELSE
    INSERT INTO truck_order_counts AS c (tenant_id, organisation_id, status, n)
      SELECT tenant_id, organisation_id, status, -count(*) FROM removed_orders GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT (tenant_id, organisation_id, status) DO UPDATE SET n = c.n + excluded.n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION truck_order_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO truck_order_counts AS c (tenant_id, organisation_id, status, n)
    SELECT k.tenant_id, k.organisation_id, k.status, k.n
      FROM (VALUES (OLD.tenant_id, OLD.organisation_id, OLD.status, -1::bigint),
                   (NEW.tenant_id, NEW.organisation_id, NEW.status, 1::bigint)) AS k(tenant_id, organisation_id, status, n)
     ORDER BY 1, 2, 3
    ON CONFLICT (tenant_id, organisation_id, status) DO UPDATE SET n = c.n + excluded.n;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION truck_order_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM truck_order_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS truck_order_counts_insert ON truck_orders;
--> statement-breakpoint
CREATE TRIGGER truck_order_counts_insert AFTER INSERT ON truck_orders
  REFERENCING NEW TABLE AS added_orders FOR EACH STATEMENT EXECUTE FUNCTION truck_order_counts_add();
--> statement-breakpoint
DROP TRIGGER IF EXISTS truck_order_counts_delete ON truck_orders;
--> statement-breakpoint
CREATE TRIGGER truck_order_counts_delete AFTER DELETE ON truck_orders
  REFERENCING OLD TABLE AS removed_orders FOR EACH STATEMENT EXECUTE FUNCTION truck_order_counts_add();
--> statement-breakpoint
DROP TRIGGER IF EXISTS truck_order_counts_update ON truck_orders;
--> statement-breakpoint
CREATE TRIGGER truck_order_counts_update AFTER UPDATE OF status, organisation_id ON truck_orders
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.organisation_id IS DISTINCT FROM NEW.organisation_id)
  EXECUTE FUNCTION truck_order_counts_move();
--> statement-breakpoint
DROP TRIGGER IF EXISTS truck_order_counts_truncate ON truck_orders;
--> statement-breakpoint
CREATE TRIGGER truck_order_counts_truncate AFTER TRUNCATE ON truck_orders
  FOR EACH STATEMENT EXECUTE FUNCTION truck_order_counts_clear();
--> statement-breakpoint
-- The orders booked before the counts existed.
DELETE FROM truck_order_counts;
--> statement-breakpoint
INSERT INTO truck_order_counts (tenant_id, organisation_id, status, n)
  SELECT tenant_id, organisation_id, status, count(*) FROM truck_orders GROUP BY 1, 2, 3;
