ALTER TABLE "credit_transactions" ADD COLUMN "note_kind" text DEFAULT 'other' NOT NULL;--> statement-breakpoint
ALTER TABLE "credit_transactions" ADD COLUMN "note_params" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- Rows written before note kinds held English text in notes: the known texts become a kind (and the plan
-- name or bonus percentage they named become params) and lose their text; an admin's reason stays as
-- written; anything else stays 'other' with its text.
UPDATE "credit_transactions" SET "note_kind" = 'admin_adjustment' WHERE "transaction_type" = 'admin_adjustment';--> statement-breakpoint
UPDATE "credit_transactions" SET "note_kind" = 'signup_bonus', "notes" = NULL WHERE "transaction_type" = 'bonus' AND "notes" = 'Sign-up bonus';--> statement-breakpoint
UPDATE "credit_transactions" SET "note_kind" = 'workflow_run', "notes" = NULL WHERE "transaction_type" = 'usage' AND "notes" = 'Workflow run';--> statement-breakpoint
UPDATE "credit_transactions" SET "note_kind" = 'refund_run_failed', "notes" = NULL WHERE "transaction_type" = 'refund' AND "notes" = 'Refund: the run failed';--> statement-breakpoint
UPDATE "credit_transactions" SET "note_kind" = 'refund_run_expired', "notes" = NULL WHERE "transaction_type" = 'refund' AND "notes" = 'Refund: the run expired';--> statement-breakpoint
UPDATE "credit_transactions" SET "note_kind" = 'refund_workflow_deleted', "notes" = NULL WHERE "transaction_type" = 'refund' AND "notes" = 'Refund: the workflow was deleted before the run ended';--> statement-breakpoint
UPDATE "credit_transactions" SET "note_kind" = 'credit_pack', "note_params" = jsonb_build_object('plan', substring("notes" from '^(.+) credit pack$')), "notes" = NULL WHERE "transaction_type" = 'purchase' AND "notes" ~ '^.+ credit pack$';--> statement-breakpoint
UPDATE "credit_transactions" SET "note_kind" = 'monthly_plan_first_month', "note_params" = jsonb_build_object('plan', substring("notes" from '^(.+) monthly plan: first month$')), "notes" = NULL WHERE "transaction_type" = 'purchase' AND "notes" ~ '^.+ monthly plan: first month$';--> statement-breakpoint
UPDATE "credit_transactions" SET "note_kind" = 'monthly_plan_renewal', "note_params" = jsonb_build_object('plan', substring("notes" from '^(.+) monthly plan renewal$')), "notes" = NULL WHERE "transaction_type" = 'purchase' AND "notes" ~ '^.+ monthly plan renewal$';--> statement-breakpoint
UPDATE "credit_transactions" SET "note_kind" = 'monthly_plan_bonus', "note_params" = jsonb_build_object('plan', substring("notes" from '^(.+) monthly plan bonus \([0-9]+%\)$'), 'percent', substring("notes" from ' \(([0-9]+)%\)$')::integer), "notes" = NULL WHERE "transaction_type" = 'bonus' AND "notes" ~ '^.+ monthly plan bonus \([0-9]+%\)$';
