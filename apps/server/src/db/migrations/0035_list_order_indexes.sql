DROP INDEX "export_files_user_time";--> statement-breakpoint
DROP INDEX "operation_logs_time";--> statement-breakpoint
DROP INDEX "recharges_waiting";--> statement-breakpoint
DROP INDEX "truck_orders_time";--> statement-breakpoint
DROP INDEX "truck_orders_status_time";--> statement-breakpoint
DROP INDEX "truck_orders_org_time";--> statement-breakpoint
DROP INDEX "truck_orders_org_status_time";--> statement-breakpoint
CREATE INDEX "ledger_account_id" ON "ledger_entries" USING btree ("tenant_id","account_id","id");--> statement-breakpoint
CREATE INDEX "bounce_bills_org_id" ON "bounce_bills" USING btree ("tenant_id","organisation_id","id");--> statement-breakpoint
CREATE INDEX "invoices_org_id" ON "invoices" USING btree ("tenant_id","organisation_id","id");--> statement-breakpoint
CREATE INDEX "recharges_org_id" ON "recharges" USING btree ("tenant_id","organisation_id","id");--> statement-breakpoint
CREATE INDEX "work_orders_org_id" ON "work_orders" USING btree ("tenant_id","organisation_id","id");--> statement-breakpoint
CREATE INDEX "work_orders_status_id" ON "work_orders" USING btree ("tenant_id","status","id");--> statement-breakpoint
CREATE INDEX "export_files_user_time" ON "export_files" USING btree ("tenant_id","user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "operation_logs_time" ON "operation_logs" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "recharges_waiting" ON "recharges" USING btree ("tenant_id","line","status","id");--> statement-breakpoint
CREATE INDEX "truck_orders_time" ON "truck_orders" USING btree ("tenant_id","created_at","id");--> statement-breakpoint
CREATE INDEX "truck_orders_status_time" ON "truck_orders" USING btree ("tenant_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "truck_orders_org_time" ON "truck_orders" USING btree ("tenant_id","organisation_id","created_at","id");--> statement-breakpoint
CREATE INDEX "truck_orders_org_status_time" ON "truck_orders" USING btree ("tenant_id","organisation_id","status","created_at","id");