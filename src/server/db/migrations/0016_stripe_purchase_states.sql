-- A Stripe purchase is recorded from the first event about it, paid or not: `pending` while a delayed payment
-- (SEPA and the like) is on its way, `paid` once the credits are granted, `failed` when Stripe reports the
-- payment failed. `reference` is the ledger reference of the grant, so the checkout, its first invoice and a
-- refund or dispute find the same row whichever Stripe delivers first. Rows written before this were paid.
ALTER TABLE "stripe_payments" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "stripe_payments" ADD COLUMN "status" text DEFAULT 'paid' NOT NULL;--> statement-breakpoint
ALTER TABLE "stripe_payments" ADD CONSTRAINT "stripe_payments_reference_unique" UNIQUE("reference");--> statement-breakpoint
ALTER TABLE "stripe_payments" ADD CONSTRAINT "stripe_payments_status_valid" CHECK ("stripe_payments"."status" in ('pending', 'paid', 'failed'));
