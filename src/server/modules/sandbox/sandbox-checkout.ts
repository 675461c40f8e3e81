// The sandbox provider's hosted checkout: sessions opened by billing, paid on the sandbox page with
// Stripe's test cards (creating the customer, subscription or one-time payment), and expired.
import { and, desc, eq } from 'drizzle-orm';
import { validateCardInput, type CardErrors } from '@shared/card-input';
import { PLAN_CURRENCY, planPeriodEnd } from '@shared/plans';
import { emailSchema } from '@shared/validation';
import type { Db } from '../../db/client';
import { sandboxCheckoutSessions, sandboxCustomers, sandboxSubscriptions } from '../../db/schema';
import type { CheckoutSessionSnapshot, CreateCheckoutInput, SandboxOperations, SandboxPaymentsPort } from '../payments/payments.port';
import { cardOutcome } from './sandbox-cards';
import { findCharge, insertInvoice, intervalMonths, planName } from './sandbox-invoices';
import { emit, newId, type SandboxDeps } from './sandbox-store';
import { serverError } from '../../http/server-errors';

/** Stripe's checkout sessions expire after 24 hours; so do ours. */
const SANDBOX_SESSION_TTL_MS = 24 * 60 * 60 * 1000;

type SessionRow = typeof sandboxCheckoutSessions.$inferSelect;

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
    planType: row.planType,
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

function fieldErrorDetails(errors: CardErrors) {
  return Object.entries(errors).map(([path, message]) => ({ path, message }));
}

/** The card the customer paid with: the newest completed checkout's. */
export async function cardOf(tx: Db, customerId: string): Promise<{ brand: string; last4: string; laterChargesFail: boolean } | null> {
  const [row] = await tx
    .select({ metadata: sandboxCheckoutSessions.metadata })
    .from(sandboxCheckoutSessions)
    .where(and(eq(sandboxCheckoutSessions.customerId, customerId), eq(sandboxCheckoutSessions.status, 'complete')))
    .orderBy(desc(sandboxCheckoutSessions.updatedAt))
    .limit(1);
  if (!row?.metadata.card_last4) return null;
  return { brand: row.metadata.card_brand ?? 'Card', last4: row.metadata.card_last4, laterChargesFail: row.metadata.card_later_charges_fail === 'true' };
}

/** The port's checkout-session calls and the sandbox checkout page's own. */
export function createSandboxCheckout(
  deps: Pick<SandboxDeps, 'db' | 'clock' | 'prices'>,
): Pick<SandboxPaymentsPort, 'createCheckoutSession' | 'retrieveCheckoutSession' | 'expireCheckoutSession'> & Pick<SandboxOperations, 'getCheckout' | 'pay'> {
  const { db, clock, prices } = deps;
  return {
    async getCheckout(id) {
      const [row] = await db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, id)).limit(1);
      if (!row) return null;
      const status = sessionStatus(row, clock());
      const planType = row.planType;
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
        if (!row) throw serverError('sandboxCheckoutMissing');
        const status = sessionStatus(row, now);
        if (status === 'complete') throw serverError('sandboxCheckoutPaid');
        if (status === 'expired') throw serverError('sandboxCheckoutExpired');

        const fieldErrors: CardErrors & { email?: string } = validateCardInput(input, now);
        let email = row.customerEmail;
        if (!email) {
          const parsed = emailSchema.safeParse(input.email ?? '');
          if (parsed.success) email = parsed.data.toLowerCase();
          else fieldErrors.email = parsed.error.issues[0]?.message ?? 'Please enter a valid email address.';
        }
        const problems = fieldErrorDetails(fieldErrors);
        if (problems.length > 0 || !email) {
          throw serverError('sandboxCardDetailsInvalid', problems[0]?.message, problems);
        }

        const outcome = cardOutcome(input.cardNumber);
        if (outcome.kind === 'declined') {
          throw serverError('sandboxCardDeclined', outcome.message, outcome.field ? [{ path: outcome.field, message: outcome.message }] : undefined);
        }

        const planType = row.planType;
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

    async expireCheckoutSession(id) {
      const now = clock();
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, id)).for('update').limit(1);
        if (!row || sessionStatus(row, now) !== 'open') return;
        await tx.update(sandboxCheckoutSessions).set({ status: 'expired', updatedAt: now }).where(eq(sandboxCheckoutSessions.id, id));
        await emit(tx, now, 'checkout.session.expired', { checkoutSessionId: id });
      });
    },
  };
}
