-- Each tenant's pricing data (tariffs, channels, markups) carries a generation that every committed
-- change moves on by one, in commit order: a writer holds the row until it commits, so the next one
-- counts from it. A process holding that data in memory compares the generation it loaded at with the
-- one a request's own statement reads, and loads again when it is behind, so a quote never prices
-- from data older than what had committed when it was asked (db/cache-generations.ts). The
-- announcement at commit (migration 0031) stays: it frees the memory at once and keeps every other
-- reader fresh within moments.
-- No foreign key to tenants: a tenant deleted with its rows would fire these triggers mid-cascade.
CREATE TABLE "cache_generations" (
	"tenant_id" bigint NOT NULL,
	"cache" text NOT NULL,
	"generation" bigint NOT NULL,
	-- The transaction that moved it last: a transaction writing many rows moves it once.
	"changed_by" bigint NOT NULL,
	CONSTRAINT "cache_generations_pk" PRIMARY KEY("tenant_id","cache")
);
--> statement-breakpoint
ALTER TABLE "cache_generations" ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "cache_generations" FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON "cache_generations" USING (
  (SELECT coalesce(current_setting('app.tenant_id', true), '') = '')
  OR tenant_id = (SELECT nullif(current_setting('app.tenant_id', true), '')::bigint));
--> statement-breakpoint
CREATE OR REPLACE FUNCTION announce_cache_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  tenant bigint;
BEGIN
  IF TG_OP = 'DELETE' THEN
    tenant := OLD.tenant_id;
  ELSE
    tenant := NEW.tenant_id;
  END IF;
  PERFORM pg_notify('cache_changes', TG_ARGV[0] || ':' || tenant);
  INSERT INTO cache_generations AS g (tenant_id, cache, generation, changed_by)
    VALUES (tenant, TG_ARGV[0], 1, txid_current())
    ON CONFLICT (tenant_id, cache) DO UPDATE SET generation = g.generation + 1, changed_by = excluded.changed_by
    WHERE g.changed_by <> excluded.changed_by;
  RETURN NULL;
END $$;
