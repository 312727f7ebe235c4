-- Starting a run bumps execution_count, which is not part of the catalogue; notifying on it would make every
-- start take PostgreSQL's notification-queue lock at commit (serialising concurrent starts) for nothing.
-- Updates notify only when they set a column the catalogue shows (the app always moves updated_at).
DROP TRIGGER IF EXISTS user_workflows_catalogue_changed ON user_workflows;
--> statement-breakpoint
CREATE TRIGGER user_workflows_catalogue_changed
  AFTER INSERT OR DELETE OR TRUNCATE ON user_workflows
  FOR EACH STATEMENT EXECUTE FUNCTION flujo_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER user_workflows_catalogue_updated
  AFTER UPDATE OF name, description, category, interaction_type, credits_per_execution, welcome_message,
    survey_questions, is_public, is_active, updated_at ON user_workflows
  FOR EACH STATEMENT EXECUTE FUNCTION flujo_catalogue_changed();
