-- Admin-scope API keys (decision 152): a key is either a person's own ('user', every key so far) or opens the
-- management API under /api/v1/admin/ too ('admin'), which only an admin may create and which stops opening it
-- the moment its owner is no longer an admin.
ALTER TABLE "api_keys" ADD COLUMN "scope" text DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_scope_valid" CHECK ("scope" in ('user', 'admin'));
