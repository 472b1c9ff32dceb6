-- A subtree is found by its path's byte range, which only a pattern index serves whatever the collation,
-- and which row-level security lets through (like is checked after the tenant policy).
DROP INDEX "organisations_path";--> statement-breakpoint
CREATE INDEX "organisations_path" ON "organisations" USING btree ("tenant_id","path" text_pattern_ops);