-- Any change to user_workflows tells listening server processes (LISTEN catalogue_changed) that the cached
-- catalogue may be stale; the embedded database delivers it in-process before the write returns.
CREATE OR REPLACE FUNCTION flujo_catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalogue_changed', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER user_workflows_catalogue_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_workflows
  FOR EACH STATEMENT EXECUTE FUNCTION flujo_catalogue_changed();
