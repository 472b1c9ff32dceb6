CREATE TABLE "express_addresses" (
	"tenant_id" bigint NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "express_addresses_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organisation_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"company" text DEFAULT '' NOT NULL,
	"address1" text NOT NULL,
	"address2" text DEFAULT '' NOT NULL,
	"city" text NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"zipcode" text NOT NULL,
	"country" text DEFAULT 'US' NOT NULL,
	"dial_code" text DEFAULT '1' NOT NULL,
	"phone" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"residential" boolean DEFAULT false NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_by" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "express_addresses_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE INDEX "express_addresses_organisation" ON "express_addresses" USING btree ("tenant_id","organisation_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "express_addresses_default" ON "express_addresses" USING btree ("tenant_id","organisation_id","kind") WHERE "express_addresses"."is_default";--> statement-breakpoint
ALTER TABLE "express_addresses" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "express_addresses" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "express_addresses" USING ((SELECT coalesce(current_setting('app.tenant_id', true), '') = '') OR tenant_id = (SELECT nullif(current_setting('app.tenant_id', true), '')::bigint));--> statement-breakpoint
-- The express pages picked from the truck book until now: its entries carry over once, as senders (the
-- default pickup becoming the default sender) and, for businesses and warehouses, as return addresses.
INSERT INTO "express_addresses" ("tenant_id", "organisation_id", "kind", "name", "company", "address1", "address2", "city", "state", "zipcode", "country", "dial_code", "phone", "email", "residential", "is_default", "created_by")
SELECT "tenant_id", "organisation_id", k.kind, coalesce(nullif("contact", ''), "name"), CASE WHEN "contact" <> '' THEN "name" ELSE '' END,
  "address1", "address2", "city", "state", "zipcode", "country", "dial_code", "phone", "email", "address_type" = 'residential',
  k.kind = 'sender' AND "is_default_pickup", "created_by"
FROM "address_book" CROSS JOIN (VALUES ('sender'), ('return')) AS k(kind)
WHERE k.kind = 'sender' OR "address_type" IN ('business', 'warehouse')
ORDER BY "id";--> statement-breakpoint
-- Roles that kept the truck book keep the express book alike: its buttons follow the truck book's.
INSERT INTO "role_grants" ("tenant_id", "role_id", "menu_id", "button_key")
SELECT g."tenant_id", g."role_id", 51, replace(g."button_key", 'address:', 'express-address:')
FROM "role_grants" g
WHERE g."menu_id" = 50 AND g."button_key" IN ('address:save', 'address:delete', 'address:import')
  AND EXISTS (SELECT 1 FROM "role_grants" p WHERE p."tenant_id" = g."tenant_id" AND p."role_id" = g."role_id" AND p."menu_id" = 51 AND p."button_key" = '')
ON CONFLICT DO NOTHING;
