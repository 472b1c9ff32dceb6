-- A quote's prices arrive as plain JSON and the database compresses them: lz4 where the server has it
-- (a fraction of the cost of deflating them in the application), its default compression elsewhere
-- (the embedded database is built without lz4).
DO $$
BEGIN
  ALTER TABLE "truck_quotes" ALTER COLUMN "results" SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
