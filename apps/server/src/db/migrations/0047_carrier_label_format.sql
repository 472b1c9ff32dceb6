ALTER TABLE "express_channels" ADD COLUMN "carrier_label_format" text DEFAULT 'pdf' NOT NULL;--> statement-breakpoint
ALTER TABLE "express_waybills" ADD COLUMN "carrier_label_format" text;