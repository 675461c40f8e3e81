-- Tax and invoices: the tax part of what each checkout and order charged (minor units, null when
-- not recorded), and the sandbox provider's billing addresses and invoice taxes (what Stripe keeps
-- on its customers and invoices).
ALTER TABLE "checkout_sessions" ADD COLUMN "amount_tax" integer;
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "amount_tax" integer;
--> statement-breakpoint
ALTER TABLE "sandbox_customers" ADD COLUMN "country" text;
--> statement-breakpoint
ALTER TABLE "sandbox_customers" ADD COLUMN "tax_id" text;
--> statement-breakpoint
ALTER TABLE "sandbox_customers" ADD COLUMN "tax_behavior" text;
--> statement-breakpoint
ALTER TABLE "sandbox_invoices" ADD COLUMN "amount_tax" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "sandbox_invoices" ADD COLUMN "tax_rate" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "sandbox_invoices" ADD COLUMN "tax_behavior" text;
--> statement-breakpoint
ALTER TABLE "sandbox_invoices" ADD COLUMN "billing_country" text;
--> statement-breakpoint
ALTER TABLE "sandbox_invoices" ADD COLUMN "tax_id" text;
