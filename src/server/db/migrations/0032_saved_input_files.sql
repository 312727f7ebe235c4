-- File answers kept with saved answers (decision 159): stored, checked and limited as a run's input files
-- (run_input_files), one per question. Every start of the saved answers copies the bytes to a run_input_files
-- row of the new run, so a run's files and the saved ones are removed independently; the key goes to
-- storage_deletions when the saved answers (or the answer) are removed.
CREATE TABLE "saved_input_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"saved_input_id" uuid NOT NULL,
	"question_id" text NOT NULL,
	"storage_key" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "saved_input_files_size_positive" CHECK ("saved_input_files"."size" > 0)
);
--> statement-breakpoint
ALTER TABLE "saved_input_files" ADD CONSTRAINT "saved_input_files_saved_input_id_saved_inputs_id_fk" FOREIGN KEY ("saved_input_id") REFERENCES "public"."saved_inputs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_input_files_question_idx" ON "saved_input_files" USING btree ("saved_input_id","question_id");
