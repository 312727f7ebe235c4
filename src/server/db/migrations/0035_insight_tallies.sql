-- Issue 26's rest: insights' daily tallies (decision 166), and a delivery-log entry that wakes the run's event
-- streams (decision 167, at the end).
-- The tallies: whole UTC days of counted runs per (workflow, customer) and
-- of the ledger's usage, refund and purchase rows per (workflow, type, plan), so a month reads about a day's
-- worth of rows per day instead of every run and ledger row. A day is tallied once it is over (nothing is ever
-- inserted into a past day: runs and ledger rows take the time of their writing); insight_tally_mark holds the
-- first day not in the tallies, and insights read the raw rows from there on. Deletions follow the raw rows:
-- a run's tally goes with its workflow or customer, a ledger tally loses its workflow as the ledger row does.
CREATE TABLE "insight_run_days" (
	"day" date NOT NULL,
	"workflow_id" uuid NOT NULL REFERENCES "user_workflows"("id") ON DELETE cascade,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"runs" integer NOT NULL,
	CONSTRAINT "insight_run_days_day_workflow_id_user_id_pk" PRIMARY KEY("day","workflow_id","user_id")
);--> statement-breakpoint
-- Covering indexes: a range of days is read from the index alone (no visit to the table), the figures included.
CREATE INDEX "insight_run_days_day_idx" ON "insight_run_days" USING btree ("day","workflow_id","user_id","runs");--> statement-breakpoint
CREATE INDEX "insight_run_days_workflow_idx" ON "insight_run_days" USING btree ("workflow_id","day");--> statement-breakpoint
CREATE TABLE "insight_ledger_days" (
	"day" date NOT NULL,
	"workflow_id" uuid REFERENCES "user_workflows"("id") ON DELETE set null,
	"transaction_type" text NOT NULL,
	"plan_name" text,
	"rows" integer NOT NULL,
	"amount" bigint NOT NULL,
	"usd_amount" numeric(14, 2)
);--> statement-breakpoint
CREATE INDEX "insight_ledger_days_day_idx" ON "insight_ledger_days" USING btree ("day","workflow_id","transaction_type","plan_name","rows","amount","usd_amount");--> statement-breakpoint
CREATE INDEX "insight_ledger_days_workflow_idx" ON "insight_ledger_days" USING btree ("workflow_id","day");--> statement-breakpoint
CREATE TABLE "insight_tally_mark" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"through" date NOT NULL,
	CONSTRAINT "insight_tally_mark_one_row" CHECK ("id" = 1)
);--> statement-breakpoint
-- The backfill: every day that ended more than an hour ago (a transaction that began before midnight may still
-- be committing rows dated that day for a moment; none lasts an hour). The same statements as tallyDays in
-- src/server/modules/admin/insight-tallies.ts.
INSERT INTO "insight_tally_mark" ("id", "through") VALUES (1, ((now() - interval '1 hour') at time zone 'UTC')::date);--> statement-breakpoint
INSERT INTO "insight_run_days" ("day", "workflow_id", "user_id", "runs")
SELECT (e."created_at" at time zone 'UTC')::date, e."workflow_id", e."user_id", count(*)::int
  FROM "workflow_executions" e, "insight_tally_mark" m
 WHERE e."created_at" < (m."through"::timestamp at time zone 'UTC') AND e."origin" <> 'test'
 GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "insight_ledger_days" ("day", "workflow_id", "transaction_type", "plan_name", "rows", "amount", "usd_amount")
SELECT (t."created_at" at time zone 'UTC')::date, t."workflow_id", t."transaction_type", t."plan_name", count(*)::int,
       sum(t."amount")::bigint, sum(t."usd_amount")
  FROM "credit_transactions" t, "insight_tally_mark" m
 WHERE t."created_at" < (m."through"::timestamp at time zone 'UTC')
   AND t."transaction_type" IN ('usage', 'refund', 'purchase')
 GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
-- An admin follows a run's detail live (decision 167), its delivery log included: a new entry (a webhook call,
-- a result callback) tells the run's listeners as a change to the run itself does (migration 0014's channel).
-- A customer's stream, woken by it, reads the run, finds it as it was and sends nothing.
CREATE OR REPLACE FUNCTION flujo_run_logged() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('run_changed', NEW.execution_id::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER run_delivery_log_run_changed
  AFTER INSERT ON run_delivery_log
  FOR EACH ROW
  EXECUTE FUNCTION flujo_run_logged();
