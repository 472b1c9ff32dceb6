CREATE TABLE "recharge_serials" (
	"tenant_id" bigint NOT NULL,
	"day" text NOT NULL,
	"last" integer NOT NULL,
	CONSTRAINT "recharge_serials_tenant_id_day_pk" PRIMARY KEY("tenant_id","day")
);
--> statement-breakpoint
ALTER TABLE "notices" ADD COLUMN "read_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "notices_unread" ON "notices" USING btree ("tenant_id","user_id","read_at");--> statement-breakpoint
-- Notices handed out under the old rule (once, on delivery) count as read.
UPDATE "notices" SET "read_at" = "delivered_at" WHERE "delivered_at" IS NOT NULL;