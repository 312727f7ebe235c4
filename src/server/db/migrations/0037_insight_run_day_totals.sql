-- Insights' chart of a month (decision 180): the runs' tally summed per day, with the day's distinct customers,
-- so a range of days reads one row a day instead of grouping every (day, customer) pair of the tally.
CREATE TABLE "insight_run_day_totals" (
	"day" date PRIMARY KEY NOT NULL,
	"runs" integer NOT NULL,
	"customers" integer NOT NULL
);--> statement-breakpoint
-- The backfill, from the tally (the same days); the same statement as tallyDays in
-- src/server/modules/admin/insight-tallies.ts.
INSERT INTO "insight_run_day_totals" ("day", "runs", "customers")
SELECT "day", sum("runs")::int, count(DISTINCT "user_id")::int
  FROM "insight_run_days"
 GROUP BY 1;
