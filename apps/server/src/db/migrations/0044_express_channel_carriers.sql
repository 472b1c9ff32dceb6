ALTER TABLE "express_channels" ADD COLUMN "carrier_account_id" bigint;--> statement-breakpoint
ALTER TABLE "express_channels" ADD COLUMN "carrier_service" text DEFAULT '' NOT NULL;