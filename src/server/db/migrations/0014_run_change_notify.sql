-- Every change to an open run that its readers can see tells the listening server instances (LISTEN
-- run_changed), with the run's id as the payload; PostgreSQL delivers it when the transaction commits, so a
-- reader woken by it reads the committed row. Whoever writes the row (a result, a progress message, the
-- complete call, an expiry, a deletion) cannot forget it. Columns only the server's own bookkeeping uses
-- (dispatch attempts and leases, token hashes, the chat transcript and its count) stay quiet, and so do
-- ended runs: nobody follows them any more, and their later changes (file retention, account deletion) would
-- only take the notification queue's lock for nothing.
CREATE OR REPLACE FUNCTION flujo_run_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('run_changed', OLD.id::text);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER workflow_executions_run_changed
  AFTER UPDATE ON workflow_executions
  FOR EACH ROW
  WHEN (OLD.status IN ('pending', 'running') AND
    (OLD.status, OLD.progress_message, OLD.output_type, OLD.output_url, OLD.output_filename, OLD.output_size,
     OLD.output_data, OLD.result_path, OLD.file_expires_at, OLD.error_message, OLD.execution_time_ms,
     OLD.completed_at, OLD.credits_used)
    IS DISTINCT FROM
    (NEW.status, NEW.progress_message, NEW.output_type, NEW.output_url, NEW.output_filename, NEW.output_size,
     NEW.output_data, NEW.result_path, NEW.file_expires_at, NEW.error_message, NEW.execution_time_ms,
     NEW.completed_at, NEW.credits_used))
  EXECUTE FUNCTION flujo_run_changed();
--> statement-breakpoint
CREATE TRIGGER workflow_executions_run_deleted
  AFTER DELETE ON workflow_executions
  FOR EACH ROW
  WHEN (OLD.status IN ('pending', 'running'))
  EXECUTE FUNCTION flujo_run_changed();
