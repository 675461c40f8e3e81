// The sandbox provider's invoices, which double as its charges: written by checkouts, renewals and
// plan changes (with the customer's balance applied), refunded and disputed like Stripe's charges.
import { asc, eq, inArray, or } from 'drizzle-orm';
import { disputeOutcome } from '@shared/payment-rules';
import { planDisplayName, planPeriodInterval, type PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import { sandboxInvoices } from '../../db/schema';
import type { ChargeSnapshot, InvoiceSnapshot, RefundInput, SandboxOperations, SandboxPaymentsPort } from '../payments/payments.port';
import type { ProviderDiscount } from '../payments/promotions.port';
import { applyBalance, customerBalance, type InvoiceLine } from './proration';
import { emit, newId, type SandboxDeps } from './sandbox-store';
import { invoiceTax, taxedCustomers } from './sandbox-tax';
import { serverError } from '../../http/server-errors';

export type InvoiceRow = typeof sandboxInvoices.$inferSelect;

export function intervalMonths(planType: PlanType): number | null {
  return planPeriodInterval(planType)?.months ?? null;
}

/** The plan as an invoice line names it. */
export function planName(planType: PlanType): string {
  const months = intervalMonths(planType);
  return months ? `${planDisplayName(planType)} plan` : `${planDisplayName(planType)} access`;
}

function invoiceTotal(lines: readonly InvoiceLine[]): number {
  return lines.reduce((sum, line) => sum + line.amount, 0);
}

export function describeInvoice(row: Pick<InvoiceRow, 'billingReason' | 'lines'>): string {
  if (row.billingReason === 'subscription_update') return 'Plan change';
  if (row.billingReason === 'subscription_cycle') return `Renewal — ${row.lines[0]?.description ?? 'subscription'}`;
  return row.lines[0]?.description ?? 'Payment';
}

export async function invoicesOf(tx: Db, customerId: string): Promise<InvoiceRow[]> {
  return tx.select().from(sandboxInvoices).where(eq(sandboxInvoices.customerId, customerId)).orderBy(asc(sandboxInvoices.createdAt), asc(sandboxInvoices.id));
}

/** A charge is an invoice here; Stripe's payment intents are found by either id. */
export async function findCharge(tx: Db, id: string): Promise<InvoiceRow | null> {
  const [row] = await tx
    .select()
    .from(sandboxInvoices)
    .where(or(eq(sandboxInvoices.id, id), eq(sandboxInvoices.paymentIntentId, id)))
    .limit(1);
  return row ?? null;
}

export type NewInvoice = {
  customerId: string;
  subscriptionId: string | null;
  lines: InvoiceLine[];
  billingReason: string;
  paid: boolean;
  currency: string;
  planType: PlanType;
  paymentIntentId?: string;
  discount?: ProviderDiscount | null;
};

export async function insertInvoice(tx: Db, at: Date, values: NewInvoice) {
  const [invoice] = await insertInvoices(tx, at, [values]);
  return invoice!;
}

/**
 * Several invoices in three statements (a renewal wave charges a hundred at once), in this order:
 * each with its customer's balance as the invoices before it left it, those of this call included,
 * and taxed by its customer's billing details. Answers them in the same order.
 */
export async function insertInvoices(tx: Db, at: Date, list: readonly NewInvoice[]) {
  if (list.length === 0) return [];
  const customerIds = [...new Set(list.map((values) => values.customerId))];
  const earlier = await tx.select({ customerId: sandboxInvoices.customerId, lines: sandboxInvoices.lines }).from(sandboxInvoices).where(inArray(sandboxInvoices.customerId, customerIds)).orderBy(asc(sandboxInvoices.createdAt), asc(sandboxInvoices.id));
  const customers = await taxedCustomers(tx, customerIds);
  const invoicesOfCustomer = new Map<string, { lines: readonly InvoiceLine[] }[]>(customerIds.map((id) => [id, []]));
  for (const invoice of earlier) invoicesOfCustomer.get(invoice.customerId)!.push(invoice);
  const rows = list.map((values) => {
    const invoices = invoicesOfCustomer.get(values.customerId)!;
    const balance = customerBalance(invoices);
    invoices.push(values);
    // A discount comes off before tax, as at Stripe.
    const discount = values.discount ?? null;
    const taxed = invoiceTax(customers.get(values.customerId), invoiceTotal(values.lines) - (discount?.amount ?? 0));
    return {
      id: newId('in'),
      customerId: values.customerId,
      subscriptionId: values.subscriptionId,
      amountDue: applyBalance(taxed.total, balance).amountDue,
      currency: values.currency,
      status: values.paid ? 'paid' : 'open',
      billingReason: values.billingReason,
      lines: values.lines,
      planType: values.planType,
      paymentIntentId: values.paid ? (values.paymentIntentId ?? newId('pi')) : null,
      ...taxed.columns,
      amountDiscount: discount?.amount ?? 0,
      promotionCodeId: discount?.promotionCodeId ?? null,
      createdAt: at,
    };
  });
  await tx.insert(sandboxInvoices).values(rows);
  return rows.map((row) => ({ id: row.id, amountDue: row.amountDue, amountTax: row.amountTax }));
}

export function toInvoiceSnapshot(row: InvoiceRow): InvoiceSnapshot {
  return {
    id: row.id,
    customerId: row.customerId,
    subscriptionId: row.subscriptionId,
    status: row.status,
    billingReason: row.billingReason,
    amountPaid: row.status === 'paid' ? row.amountDue : 0,
    amountDue: row.amountDue,
    amountTax: row.amountTax,
    discount: row.amountDiscount > 0 ? { amount: row.amountDiscount, promotionCodeId: row.promotionCodeId } : null,
    currency: row.currency,
    createdAt: row.createdAt,
    planType: row.planType,
    paymentIntentId: row.paymentIntentId,
  };
}

/** The port's invoice and charge calls, and the demo's disputes. */
export function createSandboxInvoices(deps: Pick<SandboxDeps, 'db' | 'clock'>): Pick<SandboxPaymentsPort, 'retrieveInvoice' | 'retrieveCharge' | 'refundPayment'> & Pick<SandboxOperations, 'disputeCharge'> {
  const { db, clock } = deps;
  return {
    async retrieveInvoice(id): Promise<InvoiceSnapshot | null> {
      const [row] = await db.select().from(sandboxInvoices).where(eq(sandboxInvoices.id, id)).limit(1);
      return row ? toInvoiceSnapshot(row) : null;
    },

    async retrieveCharge(id): Promise<ChargeSnapshot | null> {
      const invoice = await findCharge(db, id);
      if (!invoice?.paymentIntentId) return null;
      return {
        id: invoice.id,
        paymentId: invoice.paymentIntentId,
        amount: invoice.amountDue,
        amountRefunded: invoice.amountRefunded,
        refunded: invoice.amountDue > 0 && invoice.amountRefunded >= invoice.amountDue,
        dispute: invoice.disputeStatus ? disputeOutcome(invoice.disputeStatus) : null,
      };
    },

    async refundPayment(input: RefundInput) {
      const now = clock();
      await db.transaction(async (tx) => {
        const found = await findCharge(tx, input.paymentId);
        if (!found?.paymentIntentId) throw serverError('sandboxNoPaymentToRefund', input.paymentId);
        // Locked so two refunds of one charge never add up to more than was paid.
        const [invoice] = await tx.select().from(sandboxInvoices).where(eq(sandboxInvoices.id, found.id)).for('update').limit(1);
        if (!invoice) return;
        const left = invoice.amountDue - invoice.amountRefunded;
        const amount = Math.min(input.amount ?? left, left);
        if (amount <= 0) return;
        await tx.update(sandboxInvoices).set({ amountRefunded: invoice.amountRefunded + amount }).where(eq(sandboxInvoices.id, invoice.id));
        await emit(tx, now, 'charge.refunded', { chargeId: invoice.id });
      });
    },

    async disputeCharge(chargeId, status) {
      const now = clock();
      await db.transaction(async (tx) => {
        const invoice = await findCharge(tx, chargeId);
        if (!invoice?.paymentIntentId) throw serverError('sandboxChargeMissing');
        await tx.update(sandboxInvoices).set({ disputeStatus: status }).where(eq(sandboxInvoices.id, invoice.id));
        await emit(tx, now, status === 'needs_response' ? 'charge.dispute.created' : 'charge.dispute.closed', { chargeId: invoice.id });
      });
    },
  };
}
