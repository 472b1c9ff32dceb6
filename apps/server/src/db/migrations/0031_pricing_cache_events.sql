-- Every write to what prices a quote (truck tariffs, express channels and their tables, markups and
-- the organisation tree they follow) tells every server process at commit, whoever wrote it, so the
-- per-tenant pricing caches drop that tenant's entry (db/cache-events.ts). A rollback tells nobody.
CREATE OR REPLACE FUNCTION announce_cache_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('cache_changes', TG_ARGV[0] || ':' || OLD.tenant_id);
  ELSE
    PERFORM pg_notify('cache_changes', TG_ARGV[0] || ':' || NEW.tenant_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER truck_products_cache AFTER INSERT OR UPDATE OR DELETE ON truck_products
  FOR EACH ROW EXECUTE FUNCTION announce_cache_change('tariffs');
--> statement-breakpoint
CREATE OR REPLACE TRIGGER truck_lanes_cache AFTER INSERT OR UPDATE OR DELETE ON truck_lanes
  FOR EACH ROW EXECUTE FUNCTION announce_cache_change('tariffs');
--> statement-breakpoint
CREATE OR REPLACE TRIGGER express_products_cache AFTER INSERT OR UPDATE OR DELETE ON express_products
  FOR EACH ROW EXECUTE FUNCTION announce_cache_change('channels');
--> statement-breakpoint
CREATE OR REPLACE TRIGGER express_channels_cache AFTER INSERT OR UPDATE OR DELETE ON express_channels
  FOR EACH ROW EXECUTE FUNCTION announce_cache_change('channels');
--> statement-breakpoint
CREATE OR REPLACE TRIGGER express_zone_rows_cache AFTER INSERT OR UPDATE OR DELETE ON express_zone_rows
  FOR EACH ROW EXECUTE FUNCTION announce_cache_change('channels');
--> statement-breakpoint
CREATE OR REPLACE TRIGGER price_levels_cache AFTER INSERT OR UPDATE OR DELETE ON price_levels
  FOR EACH ROW EXECUTE FUNCTION announce_cache_change('markups');
--> statement-breakpoint
-- A new organisation has no chain cached yet; a moved, retyped or removed one changes chains below it.
CREATE OR REPLACE TRIGGER organisations_cache AFTER UPDATE OR DELETE ON organisations
  FOR EACH ROW EXECUTE FUNCTION announce_cache_change('markups');
