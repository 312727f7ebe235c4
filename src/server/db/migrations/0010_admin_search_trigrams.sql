-- Admin searches match any part of a name, e-mail, workflow name or action, whatever its accents and case:
-- trigram indexes over folded text. flujo_fold is immutable (translate and lower only), so a generated column
-- and an index may use it. Letters are listed in both cases because lower() in the C locale leaves non-ASCII
-- capitals alone; plain ASCII text (most e-mails, actions and names) skips the slower translate.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE OR REPLACE FUNCTION flujo_fold(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT CASE WHEN value ~ '[^\x01-\x7f]'
    THEN lower(translate(value, 'ÁÀÂÄÃÅÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÑÇÝáàâäãåéèêëíìîïóòôöõúùûüñçýÿ', 'AAAAAAEEEEIIIIOOOOOUUUUNCYaaaaaaeeeeiiiiooooouuuuncyy'))
    ELSE lower(value) END $$;--> statement-breakpoint
DROP INDEX "user_profiles_full_name_fts_idx";--> statement-breakpoint
ALTER TABLE "user_profiles" ADD COLUMN "search_text" text GENERATED ALWAYS AS (flujo_fold(email || chr(10) || coalesce(full_name, ''))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_action_trgm_idx" ON "admin_audit_logs" USING gin (flujo_fold("action_type") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_profiles_search_trgm_idx" ON "user_profiles" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_workflows_name_trgm_idx" ON "user_workflows" USING gin (flujo_fold((name ->> 'es') || chr(10) || (name ->> 'en')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_workflows_text_trgm_idx" ON "user_workflows" USING gin (flujo_fold((name ->> 'es') || chr(10) || (name ->> 'en') || chr(10) || coalesce(description ->> 'es', '') || chr(10) || coalesce(description ->> 'en', '')) gin_trgm_ops);