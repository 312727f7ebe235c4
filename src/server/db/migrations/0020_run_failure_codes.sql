-- A failed or expired run says why as a code (src/shared/contract/executions.ts, RUN_FAILURE_CODES) that each
-- reader words in their own language; error_message keeps the technical detail for admins. Runs that ended
-- before codes existed get theirs from the English texts the server wrote then; any other text was the
-- workflow's own failure message.
ALTER TABLE "workflow_executions" ADD COLUMN "error_code" text;--> statement-breakpoint
UPDATE "workflow_executions" SET "error_code" = CASE
  WHEN "status" = 'expired' THEN 'timeout'
  WHEN "error_message" LIKE 'The workflow''s webhook address is not allowed%' THEN 'webhook_blocked'
  WHEN "error_message" LIKE 'The workflow''s result was refused%' THEN 'result_refused'
  WHEN "error_message" LIKE 'The workflow service refused the run%' THEN 'workflow_refused'
  WHEN "error_message" LIKE 'The workflow service could not be reached%' THEN 'workflow_unreachable'
  ELSE 'workflow_failed'
END
WHERE "status" IN ('failed', 'expired');--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD CONSTRAINT "executions_error_code_valid" CHECK ("error_code" IN ('timeout', 'workflow_failed', 'workflow_refused', 'workflow_unreachable', 'webhook_blocked', 'result_refused'));
--> statement-breakpoint
-- The server's stand-in for a workflow that failed without a word: the code says as much now.
UPDATE "workflow_executions" SET "error_message" = NULL WHERE "error_code" = 'workflow_failed' AND "error_message" = 'The workflow reported a failure';
