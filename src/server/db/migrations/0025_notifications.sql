-- What a person is told about (decision 142): a run that ended while they were probably away, a schedule that
-- skipped or paused, a low balance. One row per event, written in the transaction of the change that causes
-- it, so that a crash can neither lose nor double it. `in_bell` rows are listed under the top bar's bell;
-- `mail_state` 'pending' rows are turned into outbox mails by the notification-mail job (in one transaction
-- with setting 'queued'), and 'none' rows never mail.
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"kind" text NOT NULL,
	"run_id" uuid REFERENCES "workflow_executions"("id") ON DELETE cascade,
	"workflow_id" uuid REFERENCES "user_workflows"("id") ON DELETE set null,
	"params" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"in_bell" boolean NOT NULL,
	"mail_state" text NOT NULL,
	"dedupe_key" text,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_kind_valid" CHECK ("kind" in ('run_completed', 'run_failed', 'schedule_skipped', 'schedule_paused', 'schedule_uncovered', 'low_balance')),
	CONSTRAINT "notifications_mail_state_valid" CHECK ("mail_state" in ('none', 'pending', 'queued'))
);--> statement-breakpoint
CREATE INDEX "notifications_bell_idx" ON "notifications" USING btree ("user_id", "created_at" DESC) WHERE "in_bell";--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id") WHERE "in_bell" AND "read_at" IS NULL;--> statement-breakpoint
CREATE INDEX "notifications_mail_due_idx" ON "notifications" USING btree ("created_at") WHERE "mail_state" = 'pending';--> statement-breakpoint
-- A warning that must be given once (a schedule the balance will not cover, per due time) names itself.
CREATE UNIQUE INDEX "notifications_dedupe_idx" ON "notifications" USING btree ("user_id", "dedupe_key") WHERE "dedupe_key" IS NOT NULL;--> statement-breakpoint
-- The person's choices: per channel (mail, bell) and per origin (web, schedule, api: the API and MCP), one of
-- all, failures, none; missing entries mean all. The low-balance threshold is off (null) by default;
-- low_balance_warned remembers that the balance is below it and the person was told.
ALTER TABLE "user_profiles" ADD COLUMN "notification_preferences" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "user_profiles" ADD COLUMN "low_balance_threshold" integer;--> statement-breakpoint
ALTER TABLE "user_profiles" ADD COLUMN "low_balance_warned" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user_profiles" ADD CONSTRAINT "user_profiles_low_balance_threshold_valid" CHECK ("low_balance_threshold" IS NULL OR "low_balance_threshold" BETWEEN 1 AND 1000000);--> statement-breakpoint
-- Every change of a balance passes here, whichever path debits it (the run start's single statement, the
-- ledger's conditional update, an admin's adjustment): crossing below the threshold writes one notification
-- and remembers it; rising to the threshold or above forgets it, so the next fall warns again. Accounts
-- without a threshold never enter the function.
CREATE OR REPLACE FUNCTION flujo_low_balance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.credits < NEW.low_balance_threshold THEN
    IF NOT NEW.low_balance_warned THEN
      NEW.low_balance_warned := true;
      INSERT INTO notifications (user_id, kind, params, in_bell, mail_state)
        VALUES (NEW.id, 'low_balance',
          jsonb_build_object('balance', NEW.credits, 'threshold', NEW.low_balance_threshold), true, 'pending');
    END IF;
  ELSIF NEW.low_balance_warned THEN
    NEW.low_balance_warned := false;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER user_profiles_low_balance
  BEFORE UPDATE OF credits ON user_profiles
  FOR EACH ROW
  WHEN (NEW.low_balance_threshold IS NOT NULL AND NEW.credits IS DISTINCT FROM OLD.credits)
  EXECUTE FUNCTION flujo_low_balance();--> statement-breakpoint
-- The bell follows its rows live: every change to a person's bell (a new row, a row read) tells the listening
-- server instances, with the person's id, when it commits.
CREATE OR REPLACE FUNCTION flujo_notification_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('notification_changed', NEW.user_id::text);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER notifications_changed
  AFTER INSERT OR UPDATE OF read_at ON notifications
  FOR EACH ROW
  WHEN (NEW.in_bell)
  EXECUTE FUNCTION flujo_notification_changed();
