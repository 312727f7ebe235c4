-- One review per person and workflow. hidden_at is set by an admin: a hidden review counts nowhere and is
-- shown to no one but its author and the admins.
CREATE TABLE "workflow_reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workflow_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"rating" integer NOT NULL,
	"comment" text,
	"hidden_at" timestamp with time zone,
	"hidden_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workflow_reviews_rating_range" CHECK ("workflow_reviews"."rating" between 1 and 5),
	CONSTRAINT "workflow_reviews_comment_length" CHECK (char_length("workflow_reviews"."comment") <= 2000)
);
--> statement-breakpoint
ALTER TABLE "workflow_reviews" ADD CONSTRAINT "workflow_reviews_workflow_id_user_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."user_workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_reviews" ADD CONSTRAINT "workflow_reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workflow_reviews" ADD CONSTRAINT "workflow_reviews_hidden_by_users_id_fk" FOREIGN KEY ("hidden_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "workflow_reviews_one_per_person" ON "workflow_reviews" USING btree ("workflow_id","user_id");--> statement-breakpoint
CREATE INDEX "workflow_reviews_workflow_created_idx" ON "workflow_reviews" USING btree ("workflow_id","created_at" DESC);--> statement-breakpoint
CREATE INDEX "workflow_reviews_user_idx" ON "workflow_reviews" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "workflow_reviews_hidden_by_idx" ON "workflow_reviews" USING btree ("hidden_by");--> statement-breakpoint
-- Each workflow's visible reviews, summed: written only by review writers (never by a run start), and locked
-- first by each of them, so writers of one workflow take turns and each recount sees the previous one's.
CREATE TABLE "workflow_ratings" (
	"workflow_id" uuid PRIMARY KEY NOT NULL,
	"review_count" integer DEFAULT 0 NOT NULL,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workflow_ratings" ADD CONSTRAINT "workflow_ratings_workflow_id_user_workflows_id_fk" FOREIGN KEY ("workflow_id") REFERENCES "public"."user_workflows"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The catalogue shows each workflow's rating: a change to it makes the cached catalogue stale.
CREATE TRIGGER workflow_ratings_catalogue_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON workflow_ratings
  FOR EACH STATEMENT EXECUTE FUNCTION flujo_catalogue_changed();
--> statement-breakpoint
-- The catalogue now carries run counts (its "popular" order). Only the tally pass writes them, a few times a
-- minute and never in a run start, so notifying on a count that moved costs nothing on the start path.
CREATE TRIGGER user_workflows_run_count_changed
  AFTER UPDATE OF execution_count ON user_workflows
  FOR EACH ROW WHEN (OLD.execution_count IS DISTINCT FROM NEW.execution_count)
  EXECUTE FUNCTION flujo_catalogue_changed();
