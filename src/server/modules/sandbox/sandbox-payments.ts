// The sandbox payment provider: a product feature for demos and development, not a test double.
// It keeps what Stripe would keep (customers, checkout sessions, subscriptions, invoices) in the
// sandbox_* tables, accepts Stripe's test cards on its own hosted checkout page, renews on
// schedule, and emits events (sandbox_events) that the same handler as Stripe's webhooks applies.
import { randomBytes } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { validateCardInput, type CardErrors } from '@shared/card-input';
import { disputeOutcome } from '@shared/payment-rules';
import { PLAN_CURRENCY, planDisplayName, planPeriodEnd, planPeriodInterval, type PlanPrices, type PlanType } from '@shared/plans';
import { emailSchema } from '@shared/validation';
import type { Db } from '../../db/client';
import { sandboxCheckoutSessions, sandboxCustomers, sandboxEvents, sandboxInvoices, sandboxSubscriptions } from '../../db/schema';
import { ApiError } from '../../http/errors';
import type {
  ChargeSnapshot,
  CheckoutSessionSnapshot,
  CreateCheckoutInput,
  InvoiceSnapshot,
  PaymentEvent,
  PlanChangeInput,
  PlanChangePreview,
  RefundInput,
  SandboxOperations,
  SandboxPaymentsPort,
  SubscriptionSnapshot,
} from '../billing/payments.port';
import { applyBalance, computeProration, customerBalance, type InvoiceLine } from './proration';
import { cardOutcome, DECLINE_MESSAGES } from './sandbox-cards';

/** Stripe's checkout sessions expire after 24 hours; so do ours. */
export const SANDBOX_SESSION_TTL_MS = 24 * 60 * 60 * 1000;

type SessionRow = typeof sandboxCheckoutSessions.$inferSelect;
type SubscriptionRow = typeof sandboxSubscriptions.$inferSelect;
type InvoiceRow = typeof sandboxInvoices.$inferSelect;

export type SandboxDeps = {
  db: Db;
  clock: () => Date;
  /** The price of each plan now (campaign.ts: sale prices while the sale runs, regular after). */
  prices: () => PlanPrices;
  /** Where the portal's "Return" link goes. */
  portalReturnUrl: string;
};

const newId = (prefix: string) => `${prefix}_sbx_${randomBytes(12).toString('hex')}`;

// Time-sortable ids keep events of one transaction in the order they were emitted.
let eventSequence = 0;
function newEventId(at: Date): string {
  eventSequence = (eventSequence + 1) % 1_000_000;
  return `evt_sbx_${at.getTime().toString(36).padStart(9, '0')}${eventSequence.toString(36).padStart(4, '0')}${randomBytes(4).toString('hex')}`;
}

type EventRefs = Omit<PaymentEvent, 'id' | 'type' | 'created'>;

async function emit(tx: Db, at: Date, type: string, refs: EventRefs): Promise<void> {
  await tx.insert(sandboxEvents).values({ id: newEventId(at), type, payload: refs, createdAt: at });
}

function intervalMonths(planType: PlanType): number | null {
  return planPeriodInterval(planType)?.months ?? null;
}

function planName(planType: PlanType): string {
  const months = intervalMonths(planType);
  return months ? `${planDisplayName(planType)} plan` : `${planDisplayName(planType)} access`;
}

function sessionStatus(row: SessionRow, now: Date): 'open' | 'complete' | 'expired' {
  if (row.status === 'open' && now.getTime() - row.createdAt.getTime() > SANDBOX_SESSION_TTL_MS) return 'expired';
  return row.status as 'open' | 'complete' | 'expired';
}

function toSessionSnapshot(row: SessionRow, now: Date, paymentIntentId: string | null): CheckoutSessionSnapshot {
  const { card_brand: _brand, card_last4: _last4, card_later_charges_fail: _fails, ...metadata } = row.metadata;
  return {
    id: row.id,
    status: sessionStatus(row, now),
    paymentStatus: row.paymentStatus as CheckoutSessionSnapshot['paymentStatus'],
    mode: row.mode as CheckoutSessionSnapshot['mode'],
    planType: row.planType as PlanType,
    email: row.customerEmail,
    amountTotal: row.unitAmount,
    currency: row.currency,
    customerId: row.customerId,
    subscriptionId: row.subscriptionId,
    paymentId: row.paymentIntentId,
    paymentIntentId,
    paymentReversed: false,
    metadata,
    createdAt: row.createdAt,
    livemode: false,
  };
}

function toSubscriptionSnapshot(row: SubscriptionRow, latestInvoiceId: string | null): SubscriptionSnapshot {
  return {
    id: row.id,
    customerId: row.customerId,
    status: row.status,
    planType: row.planType as PlanType,
    itemId: `si_${row.id}`,
    unitAmount: row.unitAmount,
    currency: row.currency,
    currentPeriodStart: row.currentPeriodStart,
    currentPeriodEnd: row.currentPeriodEnd,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    endedAt: row.status === 'canceled' ? row.canceledAt : null,
    livemode: false,
    latestInvoiceId,
  };
}

function invoiceTotal(lines: readonly InvoiceLine[]): number {
  return lines.reduce((sum, line) => sum + line.amount, 0);
}

function describeInvoice(row: Pick<InvoiceRow, 'billingReason' | 'lines'>): string {
  if (row.billingReason === 'subscription_update') return 'Plan change';
  if (row.billingReason === 'subscription_cycle') return `Renewal — ${row.lines[0]?.description ?? 'subscription'}`;
  return row.lines[0]?.description ?? 'Payment';
}

function fieldErrorDetails(errors: CardErrors) {
  return Object.entries(errors).map(([path, message]) => ({ path, message }));
}

export function createSandboxPayments(deps: SandboxDeps): SandboxPaymentsPort {
  const { db, clock, prices } = deps;

  async function lockSubscription(tx: Db, id: string): Promise<SubscriptionRow | null> {
    const [row] = await tx.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, id)).for('update').limit(1);
    return row ?? null;
  }

  async function invoicesOf(tx: Db, customerId: string): Promise<InvoiceRow[]> {
    return tx.select().from(sandboxInvoices).where(eq(sandboxInvoices.customerId, customerId)).orderBy(asc(sandboxInvoices.createdAt), asc(sandboxInvoices.id));
  }

  /** The card the customer paid with: the newest completed checkout's. */
  async function cardOf(tx: Db, customerId: string): Promise<{ brand: string; last4: string; laterChargesFail: boolean } | null> {
    const [row] = await tx
      .select({ metadata: sandboxCheckoutSessions.metadata })
      .from(sandboxCheckoutSessions)
      .where(and(eq(sandboxCheckoutSessions.customerId, customerId), eq(sandboxCheckoutSessions.status, 'complete')))
      .orderBy(desc(sandboxCheckoutSessions.updatedAt))
      .limit(1);
    if (!row?.metadata.card_last4) return null;
    return { brand: row.metadata.card_brand ?? 'Card', last4: row.metadata.card_last4, laterChargesFail: row.metadata.card_later_charges_fail === 'true' };
  }

  async function snapshotOf(tx: Db, row: SubscriptionRow): Promise<SubscriptionSnapshot> {
    const [latest] = await tx
      .select({ id: sandboxInvoices.id })
      .from(sandboxInvoices)
      .where(eq(sandboxInvoices.subscriptionId, row.id))
      .orderBy(desc(sandboxInvoices.createdAt), desc(sandboxInvoices.id))
      .limit(1);
    return toSubscriptionSnapshot(row, latest?.id ?? null);
  }

  /** A charge is an invoice here; Stripe's payment intents are found by either id. */
  async function findCharge(tx: Db, id: string): Promise<InvoiceRow | null> {
    const [row] = await tx
      .select()
      .from(sandboxInvoices)
      .where(or(eq(sandboxInvoices.id, id), eq(sandboxInvoices.paymentIntentId, id)))
      .limit(1);
    return row ?? null;
  }

  async function insertInvoice(
    tx: Db,
    at: Date,
    values: { customerId: string; subscriptionId: string | null; lines: InvoiceLine[]; billingReason: string; paid: boolean; currency: string; planType: PlanType; paymentIntentId?: string },
  ) {
    const balance = customerBalance(await invoicesOf(tx, values.customerId));
    const { amountDue } = applyBalance(invoiceTotal(values.lines), balance);
    const id = newId('in');
    await tx.insert(sandboxInvoices).values({
      id,
      customerId: values.customerId,
      subscriptionId: values.subscriptionId,
      amountDue,
      currency: values.currency,
      status: values.paid ? 'paid' : 'open',
      billingReason: values.billingReason,
      lines: values.lines,
      planType: values.planType,
      paymentIntentId: values.paid ? (values.paymentIntentId ?? newId('pi')) : null,
      createdAt: at,
    });
    return { id, amountDue };
  }

  /** One renewal step at `at` for a subscription whose period has ended. */
  async function renew(id: string, at: Date): Promise<boolean> {
    return db.transaction(async (tx) => {
      const sub = await lockSubscription(tx, id);
      if (!sub || !['active', 'trialing', 'past_due'].includes(sub.status) || sub.currentPeriodEnd.getTime() > at.getTime()) return false;
      const planType = sub.planType as PlanType;
      // A cancellation at period end, or a period that stayed unpaid to its end, ends the subscription.
      if (sub.cancelAtPeriodEnd || sub.status === 'past_due') {
        await tx
          .update(sandboxSubscriptions)
          .set({ status: 'canceled', canceledAt: sub.currentPeriodEnd, updatedAt: at })
          .where(eq(sandboxSubscriptions.id, id));
        await emit(tx, at, 'customer.subscription.deleted', { subscriptionId: id });
        return true;
      }
      const start = sub.currentPeriodEnd;
      const end = planPeriodEnd(planType, start);
      if (!end) return false;
      const card = await cardOf(tx, sub.customerId);
      const paid = !card?.laterChargesFail;
      const line = { description: `1 × ${planName(planType)} (${start.toISOString().slice(0, 10)} – ${end.toISOString().slice(0, 10)})`, amount: sub.unitAmount, proration: false };
      const invoice = await insertInvoice(tx, at, { customerId: sub.customerId, subscriptionId: id, lines: [line], billingReason: 'subscription_cycle', paid, currency: sub.currency, planType });
      await tx
        .update(sandboxSubscriptions)
        .set({ currentPeriodStart: start, currentPeriodEnd: end, status: paid ? 'active' : 'past_due', updatedAt: at })
        .where(eq(sandboxSubscriptions.id, id));
      await emit(tx, at, paid ? 'invoice.paid' : 'invoice.payment_failed', { invoiceId: invoice.id, subscriptionId: id });
      await emit(tx, at, 'customer.subscription.updated', { subscriptionId: id });
      return true;
    });
  }

  async function ownedSubscription(customerId: string, subscriptionId: string): Promise<SubscriptionRow> {
    const [row] = await db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, subscriptionId)).limit(1);
    if (!row || row.customerId !== customerId) throw new ApiError(404, 'not_found', 'Subscription not found.');
    return row;
  }

  function planChange(sub: SubscriptionRow, planType: PlanType, prorationDate: number, balance: number) {
    const current = sub.planType as PlanType;
    const currentMonths = intervalMonths(current);
    const nextMonths = intervalMonths(planType);
    if (!currentMonths || !nextMonths) throw new ApiError(400, 'validation_failed', 'Only recurring plans can be changed in place.');
    return computeProration({
      current: { amount: sub.unitAmount, intervalMonths: currentMonths, name: planName(current) },
      next: { amount: prices()[planType], intervalMonths: nextMonths, name: planName(planType) },
      periodStart: sub.currentPeriodStart,
      periodEnd: sub.currentPeriodEnd,
      prorationDate: new Date(prorationDate * 1000),
      balance,
    });
  }

  const sandbox: SandboxOperations = {
    async getCheckout(id) {
      const [row] = await db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, id)).limit(1);
      if (!row) return null;
      const status = sessionStatus(row, clock());
      const planType = row.planType as PlanType;
      return {
        id: row.id,
        status,
        mode: row.mode as 'payment' | 'subscription',
        planType,
        amount: row.unitAmount,
        currency: row.currency,
        intervalMonths: row.mode === 'subscription' ? intervalMonths(planType) : null,
        customerEmail: row.customerEmail,
        cancelUrl: row.cancelUrl,
        successUrl: status === 'complete' ? row.successUrl : null,
      };
    },

    async pay(id, input) {
      const now = clock();
      return db.transaction(async (tx) => {
        const [row] = await tx.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, id)).for('update').limit(1);
        if (!row) throw new ApiError(404, 'session_not_found', 'This checkout session does not exist.');
        const status = sessionStatus(row, now);
        if (status === 'complete') throw new ApiError(409, 'session_claimed', 'This checkout has already been paid.');
        if (status === 'expired') throw new ApiError(410, 'not_found', 'This checkout session has expired. Please start again from the shop.');

        const fieldErrors: CardErrors & { email?: string } = validateCardInput(input, now);
        let email = row.customerEmail;
        if (!email) {
          const parsed = emailSchema.safeParse(input.email ?? '');
          if (parsed.success) email = parsed.data.toLowerCase();
          else fieldErrors.email = parsed.error.issues[0]?.message ?? 'Please enter a valid email address.';
        }
        const problems = fieldErrorDetails(fieldErrors);
        if (problems.length > 0 || !email) {
          throw new ApiError(400, 'validation_failed', problems[0]?.message ?? 'Please check your details.', problems);
        }

        const outcome = cardOutcome(input.cardNumber);
        if (outcome.kind === 'declined') {
          throw new ApiError(402, 'payment_failed', outcome.message, outcome.field ? [{ path: outcome.field, message: outcome.message }] : undefined);
        }

        const planType = row.planType as PlanType;
        let customerId = row.customerId;
        if (!customerId) {
          customerId = newId('cus');
          await tx.insert(sandboxCustomers).values({ id: customerId, email, createdAt: now });
        }
        const paymentIntentId = newId('pi');
        let subscriptionId: string | null = null;
        let invoiceId: string;
        if (row.mode === 'subscription') {
          const end = planPeriodEnd(planType, now);
          if (!end) throw new Error(`plan ${planType} has no billing period`);
          subscriptionId = newId('sub');
          await tx.insert(sandboxSubscriptions).values({
            id: subscriptionId,
            customerId,
            planType,
            unitAmount: row.unitAmount,
            currency: row.currency,
            status: 'active',
            currentPeriodStart: now,
            currentPeriodEnd: end,
            createdAt: now,
            updatedAt: now,
          });
          const line = { description: `1 × ${planName(planType)} (${now.toISOString().slice(0, 10)} – ${end.toISOString().slice(0, 10)})`, amount: row.unitAmount, proration: false };
          invoiceId = (await insertInvoice(tx, now, { customerId, subscriptionId, lines: [line], billingReason: 'subscription_create', paid: true, currency: row.currency, planType })).id;
        } else {
          const line = { description: `${planName(planType)} — one-time payment`, amount: row.unitAmount, proration: false };
          invoiceId = (await insertInvoice(tx, now, { customerId, subscriptionId: null, lines: [line], billingReason: 'manual', paid: true, currency: row.currency, planType, paymentIntentId })).id;
        }
        await tx
          .update(sandboxCheckoutSessions)
          .set({
            status: 'complete',
            paymentStatus: 'paid',
            customerEmail: email,
            customerId,
            subscriptionId,
            paymentIntentId: row.mode === 'payment' ? paymentIntentId : invoiceId,
            metadata: { ...row.metadata, card_brand: outcome.brand, card_last4: outcome.last4, card_later_charges_fail: String(outcome.laterChargesFail) },
            updatedAt: now,
          })
          .where(eq(sandboxCheckoutSessions.id, id));
        await emit(tx, now, 'checkout.session.completed', { checkoutSessionId: id });
        if (subscriptionId) {
          await emit(tx, now, 'customer.subscription.created', { subscriptionId });
          await emit(tx, now, 'invoice.paid', { invoiceId, subscriptionId });
        }
        return { redirectUrl: row.successUrl };
      });
    },

    async getPortal(customerId) {
      const [customer] = await db.select().from(sandboxCustomers).where(eq(sandboxCustomers.id, customerId)).limit(1);
      if (!customer) return null;
      const subscriptions = await db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.customerId, customerId)).orderBy(desc(sandboxSubscriptions.createdAt));
      const invoices = await db.select().from(sandboxInvoices).where(eq(sandboxInvoices.customerId, customerId)).orderBy(desc(sandboxInvoices.createdAt), desc(sandboxInvoices.id));
      const card = await cardOf(db, customerId);
      return {
        customerId,
        email: customer.email,
        card: card ? { brand: card.brand, last4: card.last4 } : null,
        returnUrl: deps.portalReturnUrl,
        subscriptions: subscriptions.map((sub) => ({
          id: sub.id,
          planType: sub.planType as PlanType,
          status: sub.status,
          amount: sub.unitAmount,
          currency: sub.currency,
          intervalMonths: intervalMonths(sub.planType as PlanType) ?? 1,
          currentPeriodEnd: sub.currentPeriodEnd.toISOString(),
          cancelAtPeriodEnd: sub.cancelAtPeriodEnd,
          canceledAt: sub.canceledAt?.toISOString() ?? null,
        })),
        invoices: invoices.map((invoice) => ({
          id: invoice.id,
          createdAt: invoice.createdAt.toISOString(),
          description: describeInvoice(invoice),
          amountDue: invoice.amountDue,
          currency: invoice.currency,
          status: invoice.status,
        })),
      };
    },

    async setCancelAtPeriodEnd(customerId, subscriptionId, cancel) {
      await ownedSubscription(customerId, subscriptionId);
      const now = clock();
      await db.transaction(async (tx) => {
        const sub = await lockSubscription(tx, subscriptionId);
        if (!sub || sub.status === 'canceled') throw new ApiError(409, 'validation_failed', 'This subscription has already ended.');
        if (sub.cancelAtPeriodEnd === cancel) return;
        await tx.update(sandboxSubscriptions).set({ cancelAtPeriodEnd: cancel, updatedAt: now }).where(eq(sandboxSubscriptions.id, subscriptionId));
        await emit(tx, now, 'customer.subscription.updated', { subscriptionId });
      });
    },

    async advanceToPeriodEnd(customerId, subscriptionId) {
      const sub = await ownedSubscription(customerId, subscriptionId);
      if (sub.status === 'canceled') throw new ApiError(409, 'validation_failed', 'This subscription has already ended.');
      await renew(subscriptionId, sub.currentPeriodEnd);
    },

    async runClock(now = clock()) {
      const due = await db
        .select({ id: sandboxSubscriptions.id })
        .from(sandboxSubscriptions)
        .where(and(inArray(sandboxSubscriptions.status, ['active', 'trialing', 'past_due']), lte(sandboxSubscriptions.currentPeriodEnd, now)))
        .orderBy(asc(sandboxSubscriptions.currentPeriodEnd))
        .limit(100);
      let count = 0;
      for (const { id } of due) if (await renew(id, now)) count += 1;
      return count;
    },

    async disputeCharge(chargeId, status) {
      const now = clock();
      await db.transaction(async (tx) => {
        const invoice = await findCharge(tx, chargeId);
        if (!invoice?.paymentIntentId) throw new ApiError(404, 'not_found', 'Charge not found.');
        await tx.update(sandboxInvoices).set({ disputeStatus: status }).where(eq(sandboxInvoices.id, invoice.id));
        await emit(tx, now, status === 'needs_response' ? 'charge.dispute.created' : 'charge.dispute.closed', { chargeId: invoice.id });
      });
    },

    async pendingEvents(limit) {
      const rows = await db.select().from(sandboxEvents).where(isNull(sandboxEvents.deliveredAt)).orderBy(asc(sandboxEvents.createdAt), asc(sandboxEvents.id)).limit(limit);
      return rows.map((row) => ({ id: row.id, type: row.type, created: row.createdAt, ...(row.payload as EventRefs) }));
    },

    async markDelivered(eventId) {
      await db.update(sandboxEvents).set({ deliveredAt: sql`now()` }).where(eq(sandboxEvents.id, eventId));
    },
  };

  return {
    kind: 'sandbox',
    livemode: false,
    sandbox,

    async createCheckoutSession(input: CreateCheckoutInput) {
      const id = newId('cs');
      const now = clock();
      await db.insert(sandboxCheckoutSessions).values({
        id,
        mode: input.mode,
        planType: input.planType,
        unitAmount: prices()[input.planType],
        currency: PLAN_CURRENCY,
        customerEmail: input.customerEmail?.toLowerCase() ?? null,
        customerId: input.customerId,
        successUrl: input.successUrl.replace('{CHECKOUT_SESSION_ID}', id),
        cancelUrl: input.cancelUrl,
        metadata: input.metadata,
        createdAt: now,
        updatedAt: now,
      });
      return { id, url: `/sandbox/checkout/${id}` };
    },

    async retrieveCheckoutSession(id) {
      const [row] = await db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, id)).limit(1);
      if (!row) return null;
      const charge = row.paymentIntentId ? await findCharge(db, row.paymentIntentId) : null;
      return toSessionSnapshot(row, clock(), charge?.paymentIntentId ?? null);
    },

    async retrieveSubscription(id) {
      const [row] = await db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, id)).limit(1);
      return row ? snapshotOf(db, row) : null;
    },

    async retrieveInvoice(id): Promise<InvoiceSnapshot | null> {
      const [row] = await db.select().from(sandboxInvoices).where(eq(sandboxInvoices.id, id)).limit(1);
      if (!row) return null;
      return {
        id: row.id,
        customerId: row.customerId,
        subscriptionId: row.subscriptionId,
        status: row.status,
        billingReason: row.billingReason,
        amountPaid: row.status === 'paid' ? row.amountDue : 0,
        amountDue: row.amountDue,
        currency: row.currency,
        createdAt: row.createdAt,
        planType: (row.planType as PlanType | null) ?? null,
        paymentIntentId: row.paymentIntentId,
      };
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
        if (!found?.paymentIntentId) throw new ApiError(404, 'not_found', `No payment ${input.paymentId} to refund.`);
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

    async expireCheckoutSession(id) {
      const now = clock();
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, id)).for('update').limit(1);
        if (!row || sessionStatus(row, now) !== 'open') return;
        await tx.update(sandboxCheckoutSessions).set({ status: 'expired', updatedAt: now }).where(eq(sandboxCheckoutSessions.id, id));
        await emit(tx, now, 'checkout.session.expired', { checkoutSessionId: id });
      });
    },

    async previewPlanChange(input: PlanChangeInput): Promise<PlanChangePreview> {
      const [sub] = await db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, input.subscriptionId)).limit(1);
      if (!sub) throw new ApiError(404, 'no_customer', 'No Stripe customer found for this account.');
      const balance = customerBalance(await invoicesOf(db, sub.customerId));
      const result = planChange(sub, input.planType, input.prorationDate, balance);
      return { prorationCredit: result.prorationCredit, newPlanCharge: result.newPlanCharge, totalDue: result.totalDue, currency: sub.currency };
    },

    async applyPlanChange(input: PlanChangeInput) {
      const now = clock();
      return db.transaction(async (tx) => {
        const sub = await lockSubscription(tx, input.subscriptionId);
        if (!sub || sub.status === 'canceled') throw new ApiError(404, 'no_customer', 'No Stripe customer found for this account.');
        const balance = customerBalance(await invoicesOf(tx, sub.customerId));
        const result = planChange(sub, input.planType, input.prorationDate, balance);
        const card = await cardOf(tx, sub.customerId);
        // pending_if_incomplete: a failed charge leaves the subscription as it was.
        if (result.totalDue > 0 && card?.laterChargesFail) throw new ApiError(402, 'payment_failed', DECLINE_MESSAGES.generic);
        const invoice = await insertInvoice(tx, now, { customerId: sub.customerId, subscriptionId: sub.id, lines: result.lines, billingReason: 'subscription_update', paid: true, currency: sub.currency, planType: input.planType });
        await tx
          .update(sandboxSubscriptions)
          .set({
            planType: input.planType,
            unitAmount: prices()[input.planType],
            currentPeriodStart: result.newPeriodStart,
            currentPeriodEnd: result.newPeriodEnd,
            cancelAtPeriodEnd: false,
            status: 'active',
            updatedAt: now,
          })
          .where(eq(sandboxSubscriptions.id, sub.id));
        await emit(tx, now, 'customer.subscription.updated', { subscriptionId: sub.id });
        await emit(tx, now, 'invoice.paid', { invoiceId: invoice.id, subscriptionId: sub.id });
        const [updated] = await tx.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, sub.id)).limit(1);
        if (!updated) throw new Error(`subscription ${sub.id} vanished`);
        return snapshotOf(tx, updated);
      });
    },

    async cancelSubscriptionNow(id) {
      const now = clock();
      return db.transaction(async (tx) => {
        const sub = await lockSubscription(tx, id);
        if (!sub) throw new ApiError(404, 'no_customer', 'No Stripe customer found for this account.');
        if (sub.status !== 'canceled') {
          await tx.update(sandboxSubscriptions).set({ status: 'canceled', canceledAt: now, updatedAt: now }).where(eq(sandboxSubscriptions.id, id));
          await emit(tx, now, 'customer.subscription.deleted', { subscriptionId: id });
        }
        const [updated] = await tx.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, id)).limit(1);
        if (!updated) throw new Error(`subscription ${id} vanished`);
        return snapshotOf(tx, updated);
      });
    },

    async createPortalSession({ customerId }) {
      return { url: `/sandbox/portal/${customerId}` };
    },
  };
}
