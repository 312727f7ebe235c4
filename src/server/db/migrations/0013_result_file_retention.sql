ALTER TABLE "workflow_executions" ADD COLUMN "file_expires_at" timestamp with time zone;--> statement-breakpoint
-- Files stored before retention existed get the default 30 days from when their run ended.
UPDATE "workflow_executions" SET "file_expires_at" = coalesce("completed_at", "created_at") + interval '30 days' WHERE "result_path" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "executions_file_expiry_idx" ON "workflow_executions" USING btree ("file_expires_at") WHERE "result_path" IS NOT NULL;--> statement-breakpoint
CREATE TABLE "storage_deletions" (
	"key" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"payment_intent_id" text,
	"invoice_id" text,
	"user_id" uuid NOT NULL,
	"plan_name" text NOT NULL,
	"credits" integer NOT NULL,
	"credits_reversed" integer DEFAULT 0 NOT NULL,
	"credits_unrecovered" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stripe_payments_payment_intent_id_unique" UNIQUE("payment_intent_id"),
	CONSTRAINT "stripe_payments_invoice_id_unique" UNIQUE("invoice_id")
);
--> statement-breakpoint
ALTER TABLE "stripe_payments" ADD CONSTRAINT "stripe_payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
