-- Files people upload as survey answers: one per file question and run, kept in the result file storage
-- (storage_key) and removed with their run.
CREATE TABLE "run_input_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"execution_id" uuid NOT NULL,
	"question_id" text NOT NULL,
	"storage_key" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "run_input_files_size_positive" CHECK ("run_input_files"."size" > 0)
);
--> statement-breakpoint
ALTER TABLE "run_input_files" ADD CONSTRAINT "run_input_files_execution_id_workflow_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."workflow_executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "run_input_files_question_idx" ON "run_input_files" USING btree ("execution_id","question_id");
