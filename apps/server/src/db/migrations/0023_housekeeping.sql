-- Invitation checks are counted by the route's limit in the shared rate-limit store (docs/decisions.md,
-- "Housekeeping"): their own per-IP table goes. The sign-in lock counts by (tenant, IP, time); nothing
-- reads failures by address alone any more. The housekeeping pass finds old mail by its time.
DROP TABLE "invitation_checks" CASCADE;--> statement-breakpoint
DROP INDEX "login_failures_email";--> statement-breakpoint
CREATE INDEX "login_failures_ip" ON "login_failures" USING btree ("tenant_id","ip","created_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_created" ON "mail_outbox" USING btree ("created_at");
