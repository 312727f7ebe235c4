-- Issue 26, sections 1-3 (decisions 144-146): each run's delivery log, workflow health kept as daily tallies
-- folded from notes, incidents that mail the admins once, and pausing a workflow (by hand or automatically).
CREATE TABLE "run_delivery_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "run_delivery_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"execution_id" uuid NOT NULL REFERENCES "workflow_executions"("id") ON DELETE cascade,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"attempt" integer,
	"http_status" integer,
	"outcome" text NOT NULL,
	"error" text,
	"latency_ms" integer,
	"response_bytes" integer,
	"excerpt" text,
	CONSTRAINT "run_delivery_log_kind_valid" CHECK ("kind" in ('call', 'callback'))
);--> statement-breakpoint
CREATE INDEX "run_delivery_log_run_idx" ON "run_delivery_log" USING btree ("execution_id","id");--> statement-breakpoint
CREATE TABLE "workflow_health_notes" (
	"workflow_id" uuid NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"duration_ms" integer
);--> statement-breakpoint
CREATE TABLE "workflow_health_days" (
	"workflow_id" uuid NOT NULL REFERENCES "user_workflows"("id") ON DELETE cascade,
	"day" date NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"expired" integer DEFAULT 0 NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"durations" integer[] NOT NULL,
	"folded" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "workflow_health_days_workflow_id_day_pk" PRIMARY KEY("workflow_id","day")
);--> statement-breakpoint
CREATE SEQUENCE "workflow_health_fold_seq";--> statement-breakpoint
-- The last 30 days of every workflow, for the admin list sorted by health.
CREATE INDEX "workflow_health_days_day_idx" ON "workflow_health_days" USING btree ("day");--> statement-breakpoint
-- The latest fold is the catalogue's health version: one index lookup (catalogue.ts).
CREATE INDEX "workflow_health_days_folded_idx" ON "workflow_health_days" USING btree ("folded");--> statement-breakpoint
CREATE TRIGGER workflow_health_days_catalogue_changed
  AFTER INSERT OR UPDATE ON workflow_health_days
  FOR EACH STATEMENT EXECUTE FUNCTION flujo_catalogue_changed();--> statement-breakpoint
CREATE TABLE "workflow_incidents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workflow_id" uuid NOT NULL REFERENCES "user_workflows"("id") ON DELETE cascade,
	"kind" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "workflow_incidents_kind_valid" CHECK ("kind" in ('consecutive_failures', 'failure_rate'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_incidents_one_open" ON "workflow_incidents" USING btree ("workflow_id") WHERE "resolved_at" is null;--> statement-breakpoint
CREATE INDEX "workflow_incidents_workflow_idx" ON "workflow_incidents" USING btree ("workflow_id","opened_at" DESC);--> statement-breakpoint
ALTER TABLE "user_workflows" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_workflows" ADD COLUMN "paused_reason" text;--> statement-breakpoint
ALTER TABLE "user_workflows" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_workflows" ADD CONSTRAINT "user_workflows_paused_reason_valid" CHECK ("paused_reason" is null or "paused_reason" in ('auto', 'manual'));--> statement-breakpoint
ALTER TABLE "user_profiles" ADD COLUMN "workflow_alerts" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- Pausing moves updated_at, which the catalogue trigger of migration 0004 already watches.
CREATE INDEX "executions_workflow_ended_idx" ON "workflow_executions" USING btree ("workflow_id","completed_at") WHERE "completed_at" is not null;
