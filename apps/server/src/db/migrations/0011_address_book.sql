CREATE TABLE "address_book" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "address_book_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organisation_id" bigint NOT NULL,
	"name" text NOT NULL,
	"address1" text NOT NULL,
	"address2" text DEFAULT '' NOT NULL,
	"zipcode" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"country" text DEFAULT 'US' NOT NULL,
	"contact" text NOT NULL,
	"dial_code" text DEFAULT '1' NOT NULL,
	"phone" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"window_start" text DEFAULT '09:00' NOT NULL,
	"window_end" text DEFAULT '17:00' NOT NULL,
	"address_type" text DEFAULT 'business' NOT NULL,
	"fba_code" text DEFAULT '' NOT NULL,
	"is_default_pickup" boolean DEFAULT false NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "address_book_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "address_book_organisation" ON "address_book" USING btree ("tenant_id","organisation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "address_book_default_pickup" ON "address_book" USING btree ("tenant_id","organisation_id") WHERE "address_book"."is_default_pickup";