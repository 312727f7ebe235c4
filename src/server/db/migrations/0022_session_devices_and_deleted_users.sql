-- Each session remembers the device it was opened on (its browser's User-Agent, cut to 400 characters),
-- roughly where it was last used (a country code from a trusted proxy, or the address with its last part
-- masked: never the whole address) and when, so the account page can list signed-in devices.
ALTER TABLE "sessions" ADD COLUMN "user_agent" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "country" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "network" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_used_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
UPDATE "sessions" SET "last_used_at" = "created_at";--> statement-breakpoint
-- The admin user list leaves deleted accounts out unless asked for them: each side newest first.
CREATE INDEX "user_profiles_live_created_idx" ON "user_profiles" USING btree ("created_at" DESC) WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "user_profiles_deleted_created_idx" ON "user_profiles" USING btree ("created_at" DESC) WHERE "deleted_at" IS NOT NULL;
