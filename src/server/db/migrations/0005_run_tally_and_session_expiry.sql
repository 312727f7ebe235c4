CREATE TABLE "workflow_run_tally" (
	"workflow_id" uuid NOT NULL
);
--> statement-breakpoint
DROP INDEX "executions_workflow_idx";--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sessions_absolute_expires_idx" ON "sessions" USING btree ("absolute_expires_at");