DROP INDEX "notices_user";--> statement-breakpoint
ALTER TABLE "notices" DROP COLUMN "delivered_at";