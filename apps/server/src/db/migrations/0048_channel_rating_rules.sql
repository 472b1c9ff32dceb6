ALTER TABLE "express_channels" ADD COLUMN "scheduled_prices" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "express_channels" ADD COLUMN "rating_rules" jsonb;