-- OAuth 2.1 for /mcp and /api/v1 (decisions 161, 162): a grant a person approves is a credential like an API key
-- (a row of api_keys with kind 'oauth'), so that its monthly limit, its spending, its last use, the per-key rate
-- limit and the closing of its streams are the key's. oauth_store holds what the authorization server
-- (oidc-provider) keeps: clients, interactions, sessions, grants, codes and tokens, each found by the SHA-256
-- of its id (a code or token is its id), so a copy of the table holds no usable secret. A grant's rows go with
-- its credential.
ALTER TABLE "api_keys" ADD COLUMN "kind" text DEFAULT 'key' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "oauth_grant_id" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "oauth_client_id" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_oauth_grant_id_unique" UNIQUE("oauth_grant_id");--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_kind_valid" CHECK ("api_keys"."kind" in ('key', 'oauth'));--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_oauth_grant" CHECK (("api_keys"."kind" = 'oauth') = ("api_keys"."oauth_grant_id" is not null and "api_keys"."oauth_client_id" is not null));--> statement-breakpoint
CREATE TABLE "oauth_store" (
	"model" text NOT NULL,
	"id_hash" text NOT NULL,
	"payload" jsonb NOT NULL,
	"grant_id" text,
	"uid" text,
	"expires_at" timestamp with time zone,
	"consumed_at" timestamp with time zone,
	CONSTRAINT "oauth_store_model_id_hash_pk" PRIMARY KEY("model","id_hash")
);
--> statement-breakpoint
ALTER TABLE "oauth_store" ADD CONSTRAINT "oauth_store_grant_id_api_keys_oauth_grant_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."api_keys"("oauth_grant_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_store_grant_idx" ON "oauth_store" USING btree ("grant_id");--> statement-breakpoint
CREATE INDEX "oauth_store_uid_idx" ON "oauth_store" USING btree ("model","uid");--> statement-breakpoint
CREATE INDEX "oauth_store_expires_idx" ON "oauth_store" USING btree ("expires_at");
