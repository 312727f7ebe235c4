-- Workflow versions, archiving and test runs (issue 26, sections 4-6; decisions 147-149).
-- Every save that changes what a run uses writes a numbered version of those fields (never the secret); the
-- workflow row keeps the number of its current version and each run records the version it ran. An archived
-- workflow keeps its row, runs and reviews but leaves the catalogue and cannot be started. An admin's test run
-- has its own origin.
ALTER TABLE "user_workflows" ADD COLUMN "version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_workflows" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "workflow_version" integer;--> statement-breakpoint
ALTER TABLE "workflow_executions" DROP CONSTRAINT "executions_origin_valid";--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD CONSTRAINT "executions_origin_valid" CHECK ("workflow_executions"."origin" in ('web', 'api', 'mcp', 'schedule', 'test'));--> statement-breakpoint
CREATE TABLE "workflow_versions" (
	"workflow_id" uuid NOT NULL REFERENCES "user_workflows"("id") ON DELETE cascade,
	"version" integer NOT NULL,
	"content" jsonb NOT NULL,
	"author_id" uuid REFERENCES "users"("id") ON DELETE set null,
	"restored_from" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workflow_versions_workflow_id_version_pk" PRIMARY KEY("workflow_id","version")
);--> statement-breakpoint
-- Every existing workflow starts its history with what it is now, as version 1 (no author: written by the
-- migration). The keys are versionContent's (src/server/modules/workflows/versions.ts).
INSERT INTO "workflow_versions" ("workflow_id", "version", "content", "created_at")
SELECT "id", 1, jsonb_build_object(
	'name', "name",
	'description', "description",
	'category', "category",
	'interactionType', "interaction_type",
	'creditsPerExecution', "credits_per_execution",
	'webhookUrl', "webhook_url",
	'welcomeMessage', "welcome_message",
	'aiPrompt', "ai_prompt",
	'surveyQuestions', "survey_questions"
), "updated_at" FROM "user_workflows";
