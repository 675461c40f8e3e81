// Tax in the sandbox payment provider, standing in for Stripe Tax: with STRIPE_TAX the checkout
// collects a billing country (and an optional tax ID), kept on the customer as Stripe's
// customer_update does, and every invoice of that customer charges the VAT of src/shared/vat.ts.
// Also the member's invoice list of the sandbox, each invoice linking to its receipt page.
import { desc, eq, inArray } from 'drizzle-orm';
import { isCountryCode, TAX_TEXTS, taxFor, type TaxBehavior } from '@shared/vat';
import type { Db } from '../../db/client';
import { sandboxCustomers, sandboxInvoices } from '../../db/schema';
import type { CheckoutSessionSnapshot, InvoiceSummary, SandboxPaymentsPort } from '../payments/payments.port';

type InvoiceRow = typeof sandboxInvoices.$inferSelect;
import { serverError } from '../../http/server-errors';

/** STRIPE_TAX and PRICES_INCLUDE_TAX as the sandbox applies them. */
export type SandboxTaxSettings = { enabled: boolean; behavior: TaxBehavior };

export type BillingDetails = { country: string; taxId: string | null; behavior: TaxBehavior };

/** Where the sandbox's receipt of an invoice is (Stripe's hosted_invoice_url). */
export const receiptPath = (invoiceId: string) => `/sandbox/receipts/${encodeURIComponent(invoiceId)}`;

/**
 * The billing details a payment gives, checked as Stripe Checkout checks its address form: with tax
 * on the country is required and must be a country; without tax nothing is collected.
 */
export function billingDetailsOf(tax: SandboxTaxSettings | undefined, input: { billingCountry?: string | undefined; taxId?: string | undefined }): BillingDetails | null {
  if (!tax?.enabled) return null;
  const country = input.billingCountry ?? '';
  if (!isCountryCode(country)) throw serverError('sandboxCardDetailsInvalid', TAX_TEXTS.unknownCountry, [{ path: 'billingCountry', message: TAX_TEXTS.unknownCountry }]);
  const taxId = input.taxId?.trim().toUpperCase() || null;
  return { country, taxId, behavior: tax.behavior };
}

/**
 * Saves the billing details on the customer, as Stripe's customer_update does: its later invoices
 * (renewals, plan changes, a trial's end) are taxed by them, the way a subscription made with
 * automatic tax keeps it.
 */
export async function saveBillingDetails(tx: Db, customerId: string, details: BillingDetails | null): Promise<void> {
  if (!details) return;
  await tx.update(sandboxCustomers).set({ country: details.country, taxId: details.taxId, taxBehavior: details.behavior }).where(eq(sandboxCustomers.id, customerId));
}

/** What taxes a customer's invoices: the billing country and tax behaviour kept on them. */
export type TaxedCustomer = Pick<typeof sandboxCustomers.$inferSelect, 'country' | 'taxBehavior' | 'taxId'>;

/** The customers' tax details, in one statement for many (a renewal wave taxes a hundred invoices at once). */
export async function taxedCustomers(tx: Db, customerIds: readonly string[]): Promise<Map<string, TaxedCustomer>> {
  if (customerIds.length === 0) return new Map();
  const rows = await tx
    .select({ id: sandboxCustomers.id, country: sandboxCustomers.country, taxBehavior: sandboxCustomers.taxBehavior, taxId: sandboxCustomers.taxId })
    .from(sandboxCustomers)
    .where(inArray(sandboxCustomers.id, [...customerIds]));
  return new Map(rows.map(({ id, ...customer }) => [id, customer]));
}

/** The tax columns of a new invoice of `subtotal` for this customer, and what it charges in all. */
export function invoiceTax(customer: TaxedCustomer | undefined, subtotal: number) {
  if (!customer?.country || !customer.taxBehavior) {
    return { total: subtotal, columns: { amountTax: 0, taxRate: 0, taxBehavior: null, billingCountry: null, taxId: null } };
  }
  const breakdown = taxFor(subtotal, customer.country, customer.taxBehavior);
  return {
    total: breakdown.total,
    columns: { amountTax: breakdown.tax, taxRate: breakdown.rate, taxBehavior: customer.taxBehavior, billingCountry: customer.country, taxId: customer.taxId },
  };
}

/**
 * A paid session as Stripe reports it with automatic tax: the tax of its first invoice in
 * total_details.amount_tax, and in amount_total too when it was added on top of the price.
 */
export function withInvoiceTax(session: CheckoutSessionSnapshot, invoice: Pick<InvoiceRow, 'amountTax' | 'taxBehavior'> | null): CheckoutSessionSnapshot {
  if (!invoice?.taxBehavior || session.amountTotal === null) return session;
  const added = invoice.taxBehavior === 'exclusive' ? invoice.amountTax : 0;
  return { ...session, amountTotal: session.amountTotal + added, amountTax: invoice.amountTax };
}

/** The port's invoice list: the sandbox customer's invoices, newest first, each with its receipt. */
export function createSandboxInvoiceList(deps: { db: Db }): Pick<SandboxPaymentsPort, 'listInvoices'> {
  return {
    async listInvoices(customerId): Promise<InvoiceSummary[]> {
      const rows = await deps.db
        .select()
        .from(sandboxInvoices)
        .where(eq(sandboxInvoices.customerId, customerId))
        .orderBy(desc(sandboxInvoices.createdAt), desc(sandboxInvoices.id))
        .limit(300);
      return rows.map((row) => ({
        id: row.id,
        number: null,
        customerId: row.customerId,
        createdAt: row.createdAt,
        status: row.status,
        total: row.amountDue,
        amountTax: row.amountTax,
        currency: row.currency,
        url: receiptPath(row.id),
        pdfUrl: null,
      }));
    },
  };
}

/** What the sandbox's receipt page shows: the invoice and whom it was for. */
export async function readReceipt(db: Db, invoiceId: string) {
  const [row] = await db
    .select({ invoice: sandboxInvoices, email: sandboxCustomers.email })
    .from(sandboxInvoices)
    .innerJoin(sandboxCustomers, eq(sandboxCustomers.id, sandboxInvoices.customerId))
    .where(eq(sandboxInvoices.id, invoiceId))
    .limit(1);
  return row ?? null;
}

export type Receipt = NonNullable<Awaited<ReturnType<typeof readReceipt>>>;
