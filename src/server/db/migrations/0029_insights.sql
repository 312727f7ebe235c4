-- CSV exports (decision 151) page through runs and ledger rows by (created_at, id). The newest-first indexes
-- gain the id as their second column: the lists still read them forward (newest first), an export reads them
-- backward (oldest first) and starts each page at its cursor, instead of sorting the whole range per page.
-- Same number of indexes, so a run or a ledger row costs no extra write.
DROP INDEX IF EXISTS "executions_created_idx";--> statement-breakpoint
CREATE INDEX "executions_created_idx" ON "workflow_executions" USING btree ("created_at" DESC NULLS LAST, "id" DESC NULLS LAST);--> statement-breakpoint
DROP INDEX IF EXISTS "ledger_created_idx";--> statement-breakpoint
CREATE INDEX "ledger_created_idx" ON "credit_transactions" USING btree ("created_at" DESC NULLS LAST, "id" DESC NULLS LAST);
