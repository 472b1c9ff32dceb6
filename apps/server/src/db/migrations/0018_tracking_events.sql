CREATE TABLE "express_tracking_events" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "express_tracking_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"waybill_id" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"code" text NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"source" text NOT NULL,
	"actor_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "express_tracking_events_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "express_tracking_events_scan" ON "express_tracking_events" USING btree ("tenant_id","waybill_id","at","code");--> statement-breakpoint
CREATE INDEX "express_tracking_events_time" ON "express_tracking_events" USING btree ("tenant_id","at");