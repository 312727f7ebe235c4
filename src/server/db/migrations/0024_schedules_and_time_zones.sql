-- The person's time zone (an IANA name): detected from the browser at first use, changeable in account
-- settings; schedules are created in it by default and their times shown in it. Null until known (UTC then).
ALTER TABLE "user_profiles" ADD COLUMN "timezone" text;--> statement-breakpoint
ALTER TABLE "user_profiles" ADD CONSTRAINT "user_profiles_timezone_length" CHECK (char_length("timezone") BETWEEN 1 AND 64);--> statement-breakpoint
-- A schedule of saved answers (issue 25, decision 141): a 5-field cron read in an IANA time zone, optionally
-- ending. `next_run_at` is the next due time, set whenever the schedule is written and advanced in the same
-- transaction that starts (or skips) the due run, so each due time is handled once whatever the number of
-- instances (the job claims due rows with FOR UPDATE SKIP LOCKED). Inactive schedules have no next time and a
-- reason: paused by the person, paused after 3 skips in a row, or ended (no time left before `ends_at`).
CREATE TABLE "schedules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"saved_input_id" uuid NOT NULL,
	"cron" text NOT NULL,
	"timezone" text NOT NULL,
	"ends_at" timestamp with time zone,
	"active" boolean DEFAULT true NOT NULL,
	"paused_reason" text,
	"next_run_at" timestamp with time zone,
	"skips_in_a_row" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedules_cron_length" CHECK (char_length("schedules"."cron") BETWEEN 1 AND 100),
	CONSTRAINT "schedules_timezone_length" CHECK (char_length("schedules"."timezone") BETWEEN 1 AND 64),
	CONSTRAINT "schedules_paused_reason_valid" CHECK ("schedules"."paused_reason" IN ('person', 'skips', 'ended')),
	CONSTRAINT "schedules_active_state" CHECK (("schedules"."active" AND "schedules"."paused_reason" IS NULL AND "schedules"."next_run_at" IS NOT NULL) OR (NOT "schedules"."active" AND "schedules"."paused_reason" IS NOT NULL AND "schedules"."next_run_at" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_saved_input_id_saved_inputs_id_fk" FOREIGN KEY ("saved_input_id") REFERENCES "public"."saved_inputs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- One schedule per saved answers (its list shows "the" schedule); the owner's list; the job's due scan.
CREATE UNIQUE INDEX "schedules_saved_input_idx" ON "schedules" USING btree ("saved_input_id");--> statement-breakpoint
CREATE INDEX "schedules_user_idx" ON "schedules" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "schedules_due_idx" ON "schedules" USING btree ("next_run_at") WHERE "active";--> statement-breakpoint
-- A schedule's history: each due time it handled, once (the unique index is the last guard of "exactly
-- once"): the run it started, or the reason it skipped. `missed` counts earlier due times passed over while
-- the service was down (up to 100).
CREATE TABLE "schedule_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"schedule_id" uuid NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"outcome" text NOT NULL,
	"reason" text,
	"run_id" uuid,
	"missed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "schedule_runs_outcome_valid" CHECK ("schedule_runs"."outcome" IN ('started', 'skipped')),
	CONSTRAINT "schedule_runs_reason_valid" CHECK ("schedule_runs"."reason" IN ('insufficient_credits', 'workflow_unavailable', 'needs_review', 'account_suspended', 'missed')),
	CONSTRAINT "schedule_runs_reason_given" CHECK (("schedule_runs"."outcome" = 'skipped') = ("schedule_runs"."reason" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_run_id_workflow_executions_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."workflow_executions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "schedule_runs_due_idx" ON "schedule_runs" USING btree ("schedule_id","due_at" DESC);--> statement-breakpoint
CREATE INDEX "schedule_runs_run_idx" ON "schedule_runs" USING btree ("run_id") WHERE "run_id" IS NOT NULL;
