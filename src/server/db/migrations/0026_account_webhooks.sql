-- The customer's own webhooks (decision 143): endpoints an account registers for its events, the account's
-- signing secret for the ad hoc address of one run (`POST /api/v1/runs { webhookUrl }`), and the durable
-- deliveries, claimed with FOR UPDATE SKIP LOCKED by any instance's delivery job.
CREATE TABLE "account_webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"workflow_ids" uuid[],
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "account_webhooks_disabled_reason_valid" CHECK ("disabled_reason" is null or "disabled_reason" in ('gone', 'failing'))
);--> statement-breakpoint
CREATE INDEX "account_webhooks_user_idx" ON "account_webhooks" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE TABLE "account_webhook_secrets" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "workflow_executions" ADD COLUMN "notify_url" text;--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"endpoint_id" uuid REFERENCES "account_webhooks"("id") ON DELETE cascade,
	"url" text,
	"event_type" text NOT NULL,
	"run_id" uuid,
	"data" jsonb,
	"body" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"retry_until" timestamp with time zone NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"last_status" integer,
	"last_latency_ms" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_status_valid" CHECK ("status" in ('pending', 'delivered', 'failed')),
	CONSTRAINT "webhook_deliveries_target" CHECK ("endpoint_id" is not null or "url" is not null)
);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "next_attempt_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at" DESC);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_user_idx" ON "webhook_deliveries" USING btree ("user_id");
