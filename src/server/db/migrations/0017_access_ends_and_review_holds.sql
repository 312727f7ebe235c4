-- An admin's hiding of a review belongs to its author on that workflow, not to the review row: a review the
-- author deletes and writes again starts hidden while this row stays (an admin showing it removes the row).
CREATE TABLE "review_holds" (
	"workflow_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"hidden_at" timestamp with time zone NOT NULL,
	"hidden_by" uuid,
	CONSTRAINT "review_holds_workflow_id_user_id_pk" PRIMARY KEY("workflow_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "review_holds" ADD CONSTRAINT "review_holds_workflow_id_user_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."user_workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_holds" ADD CONSTRAINT "review_holds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_holds" ADD CONSTRAINT "review_holds_hidden_by_users_id_fk" FOREIGN KEY ("hidden_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "review_holds_user_idx" ON "review_holds" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "review_holds_hidden_by_idx" ON "review_holds" USING btree ("hidden_by");--> statement-breakpoint
INSERT INTO "review_holds" ("workflow_id", "user_id", "hidden_at", "hidden_by")
  SELECT "workflow_id", "user_id", "hidden_at", "hidden_by" FROM "workflow_reviews" WHERE "hidden_at" IS NOT NULL;--> statement-breakpoint
-- When a credential that acts for an account goes (an API key revoked, a session ended: by its owner, a
-- password reset, a suspension, an account's deletion or the clean-up job), every server instance is told
-- (LISTEN access_ended) so that the event streams it opened close. The payload names the kind and the id.
CREATE OR REPLACE FUNCTION flujo_access_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('access_ended', TG_ARGV[0] || ':' || OLD.id::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER api_keys_access_ended
  AFTER DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION flujo_access_ended('key');
--> statement-breakpoint
CREATE TRIGGER sessions_access_ended
  AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION flujo_access_ended('session');
--> statement-breakpoint
-- Names stored before the filename sanitiser knew them keep no bidirectional-control or zero-width character.
UPDATE "workflow_executions" SET "output_filename" = nullif(regexp_replace("output_filename", '[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF]', '', 'g'), '') WHERE "output_filename" ~ '[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF]';--> statement-breakpoint
UPDATE "run_input_files" SET "filename" = regexp_replace("filename", '[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF]', '', 'g') WHERE "filename" ~ '[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C\u200B-\u200D\u2060\uFEFF]';
