ALTER TABLE "carrier_accounts" ADD COLUMN "webhook_id" text;--> statement-breakpoint
ALTER TABLE "carrier_accounts" ADD COLUMN "webhook_secret_hash" text;--> statement-breakpoint
ALTER TABLE "carrier_accounts" ADD COLUMN "webhook_url" text;--> statement-breakpoint
ALTER TABLE "carrier_accounts" ADD COLUMN "webhook_registered_at" timestamp with time zone;