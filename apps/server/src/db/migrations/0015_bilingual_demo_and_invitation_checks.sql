CREATE TABLE "invitation_checks" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "invitation_checks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"ip" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invitation_checks_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "receiving_accounts" ADD COLUMN "bank_name_en" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "description_en" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "invitation_checks_ip" ON "invitation_checks" USING btree ("tenant_id","ip","created_at");--> statement-breakpoint
UPDATE "roles" SET "description_en" = "description" WHERE "builtin" = true;