-- Insights at a million runs (decision 176). The runs' tally is read in (day, customer) order, so the chart's
-- distinct customers per day stream out of the index without a hash of every (day, customer) pair; it replaces
-- the (day, workflow, customer) index, whose every reader filters on the day alone.
DROP INDEX "insight_run_days_day_idx";--> statement-breakpoint
CREATE INDEX "insight_run_days_day_user_idx" ON "insight_run_days" USING btree ("day","user_id","workflow_id","runs");--> statement-breakpoint
-- The ledger's tally summed over workflows: the chart's credits and purchases per day and the purchases per
-- plan read a few rows a day instead of one per workflow. Written with insight_ledger_days, from the same rows.
CREATE TABLE "insight_ledger_day_totals" (
	"day" date NOT NULL,
	"transaction_type" text NOT NULL,
	"plan_name" text,
	"rows" integer NOT NULL,
	"amount" bigint NOT NULL,
	"usd_amount" numeric(14, 2)
);--> statement-breakpoint
CREATE INDEX "insight_ledger_day_totals_day_idx" ON "insight_ledger_day_totals" USING btree ("day","transaction_type","plan_name","rows","amount","usd_amount");--> statement-breakpoint
-- The backfill, from the tally (the same days); the same statement as tallyDays in
-- src/server/modules/admin/insight-tallies.ts.
INSERT INTO "insight_ledger_day_totals" ("day", "transaction_type", "plan_name", "rows", "amount", "usd_amount")
SELECT "day", "transaction_type", "plan_name", sum("rows")::int, sum("amount")::bigint, sum("usd_amount")
  FROM "insight_ledger_days"
 GROUP BY 1, 2, 3;
