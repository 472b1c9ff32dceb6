-- A quote's prices are kept deflated in a bytea (db/columns.ts `packedJson`): every pricing rewrites
-- them, and as jsonb each write was parsed, compressed and moved out of the row by the database. Rows
-- priced before keep their JSON as plain text, which reads the same.
ALTER TABLE "truck_quotes" ALTER COLUMN "results" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "truck_quotes" ALTER COLUMN "results" SET DATA TYPE bytea USING convert_to("results"::text, 'UTF8');--> statement-breakpoint
ALTER TABLE "truck_quotes" ALTER COLUMN "results" SET DEFAULT '[]'::bytea;
