-- Where each run was started: the web app, the public API, the MCP server, or a schedule (issue 25). Runs
-- that exist already were all started by people or their scripts; they are counted as the web's.
ALTER TABLE "workflow_executions" ADD COLUMN "origin" text DEFAULT 'web' NOT NULL;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD CONSTRAINT "executions_origin_valid" CHECK ("origin" IN ('web', 'api', 'mcp', 'schedule'));--> statement-breakpoint
-- Saved answers: a survey's answers kept under a name, run again without the form (by a person, the API, MCP
-- or a schedule). `answers` is keyed by question id, as POST /api/v1/runs takes them; a file question's
-- answer is `{ "fileId": ... }`, naming a row of saved_input_files. When the workflow's questions change so
-- that the answers no longer fit, `needs_review` is set with the problems found (`review_reason`, the shared
-- answer check's problems), and they are never sent as they are until the person saves them again.
CREATE TABLE "saved_inputs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"workflow_id" uuid NOT NULL,
	"name" text NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"needs_review" boolean DEFAULT false NOT NULL,
	"review_reason" jsonb,
	"last_run_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_inputs_name_length" CHECK (char_length("saved_inputs"."name") BETWEEN 1 AND 100),
	CONSTRAINT "saved_inputs_language_valid" CHECK ("saved_inputs"."language" IN ('es', 'en')),
	CONSTRAINT "saved_inputs_review_reason" CHECK ("saved_inputs"."needs_review" = ("saved_inputs"."review_reason" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "saved_inputs" ADD CONSTRAINT "saved_inputs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_inputs" ADD CONSTRAINT "saved_inputs_workflow_id_user_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."user_workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_inputs" ADD CONSTRAINT "saved_inputs_last_run_id_workflow_executions_id_fk" FOREIGN KEY ("last_run_id") REFERENCES "public"."workflow_executions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- The owner's list, newest first; a name is unique per owner and workflow, whatever its case.
CREATE INDEX "saved_inputs_user_created_idx" ON "saved_inputs" USING btree ("user_id","created_at" DESC);--> statement-breakpoint
CREATE UNIQUE INDEX "saved_inputs_name_idx" ON "saved_inputs" USING btree ("user_id","workflow_id",lower("name"));--> statement-breakpoint
-- A workflow's saved answers, re-checked when its questions change.
CREATE INDEX "saved_inputs_workflow_idx" ON "saved_inputs" USING btree ("workflow_id");--> statement-breakpoint
CREATE INDEX "saved_inputs_last_run_idx" ON "saved_inputs" USING btree ("last_run_id") WHERE "last_run_id" IS NOT NULL;
