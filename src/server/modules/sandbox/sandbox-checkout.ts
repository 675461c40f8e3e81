// The sandbox provider's hosted checkout: sessions opened by billing, paid on the sandbox page with
// Stripe's test cards (creating the customer, subscription or one-time payment), and expired.
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import { validateCardInput, type CardErrors } from '@shared/card-input';
import { PLAN_CURRENCY, planPeriodEnd } from '@shared/plans';
import { emailSchema } from '@shared/validation';
import type { Db } from '../../db/client';
import { sandboxCheckoutSessions, sandboxCustomers, sandboxSubscriptions } from '../../db/schema';
import type { SandboxCheckout } from '@shared/sandbox-contract';
import type { CheckoutSessionSnapshot, CreateCheckoutInput, SandboxOperations, SandboxPaymentsPort } from '../payments/payments.port';
import { trialEnd } from '@shared/trials';
import { checkoutList } from '@shared/catalogue-publishing';
import { cardFingerprint, cardOutcome } from './sandbox-cards';
import { findCharge, insertInvoice, intervalMonths, planName } from './sandbox-invoices';
import { emit, emitAll, newId, PRICE_LIST_KEY, type SandboxDeps } from './sandbox-store';
import { billingDetailsOf, saveBillingDetails, withInvoiceTax } from './sandbox-tax';
import { assertRedeemable, couponDiscount, loadPromotion, redeem } from './sandbox-promotions';
import { serverError } from '../../http/server-errors';
import { ApiError } from '../../http/errors';

/** Stripe's checkout sessions expire after 24 hours; so do ours. */
const SANDBOX_SESSION_TTL_MS = 24 * 60 * 60 * 1000;

type SessionRow = typeof sandboxCheckoutSessions.$inferSelect;

function sessionStatus(row: SessionRow, now: Date): 'open' | 'complete' | 'expired' {
  if (row.status === 'open' && now.getTime() - row.createdAt.getTime() > SANDBOX_SESSION_TTL_MS) return 'expired';
  return row.status as 'open' | 'complete' | 'expired';
}

function toSessionSnapshot(row: SessionRow, now: Date, paymentIntentId: string | null): CheckoutSessionSnapshot {
  // the card and the list are the sandbox's own records, not the shop's metadata
  const { card_brand: _brand, card_last4: _last4, card_later_charges_fail: _fails, card_fingerprint: _fingerprint, [PRICE_LIST_KEY]: _list, ...metadata } = row.metadata;
  return {
    id: row.id,
    status: sessionStatus(row, now),
    paymentStatus: row.paymentStatus as CheckoutSessionSnapshot['paymentStatus'],
    mode: row.mode as CheckoutSessionSnapshot['mode'],
    planType: row.planType,
    email: row.customerEmail,
    // a trial's checkout charges nothing today (Stripe: amount_total 0, no_payment_required)
    amountTotal: row.trialPeriodDays ? 0 : row.unitAmount - row.amountDiscount,
    discount: row.promotionCodeId && !row.trialPeriodDays ? { amount: row.amountDiscount, promotionCodeId: row.promotionCodeId } : null,
    currency: row.currency,
    customerId: row.customerId,
    subscriptionId: row.subscriptionId,
    paymentId: row.paymentIntentId,
    paymentIntentId,
    paymentReversed: false,
    amountTax: null,
    metadata,
    createdAt: row.createdAt,
    livemode: false,
  };
}

function fieldErrorDetails(errors: CardErrors) {
  return Object.entries(errors).map(([path, message]) => ({ path, message }));
}

export type SandboxCard = { brand: string; last4: string; laterChargesFail: boolean };

/** The card the customer paid with: the newest completed checkout's. */
export async function cardOf(tx: Db, customerId: string): Promise<SandboxCard | null> {
  return (await cardsOf(tx, [customerId])).get(customerId) ?? null;
}

/** Each customer's card (cardOf), in one statement for many: a renewal wave charges a hundred at once. */
export async function cardsOf(tx: Db, customerIds: readonly string[]): Promise<Map<string, SandboxCard>> {
  if (customerIds.length === 0) return new Map();
  const rows = await tx
    .selectDistinctOn([sandboxCheckoutSessions.customerId], { customerId: sandboxCheckoutSessions.customerId, metadata: sandboxCheckoutSessions.metadata })
    .from(sandboxCheckoutSessions)
    .where(and(inArray(sandboxCheckoutSessions.customerId, [...customerIds]), eq(sandboxCheckoutSessions.status, 'complete')))
    .orderBy(sandboxCheckoutSessions.customerId, desc(sandboxCheckoutSessions.updatedAt));
  const cards = new Map<string, SandboxCard>();
  for (const { customerId, metadata } of rows) {
    if (customerId && metadata.card_last4) cards.set(customerId, { brand: metadata.card_brand ?? 'Card', last4: metadata.card_last4, laterChargesFail: metadata.card_later_charges_fail === 'true' });
  }
  return cards;
}

/** The port's checkout-session calls and the sandbox checkout page's own. */
export function createSandboxCheckout(
  deps: Pick<SandboxDeps, 'db' | 'clock' | 'prices' | 'tax' | 'listCharge' | 'catalogue'>,
): Pick<SandboxPaymentsPort, 'createCheckoutSession' | 'retrieveCheckoutSession' | 'expireCheckoutSession' | 'resumeCheckoutSession'> &
  Pick<SandboxOperations, 'getCheckout' | 'pay'> & { expireStaleCheckouts: (now: Date) => Promise<number> } {
  const { db, clock, prices } = deps;

  /** The promotion code shown on the checkout page: the one applied, or whether the buyer may type one. */
  async function checkoutDiscount(row: SessionRow): Promise<Pick<SandboxCheckout, 'discount' | 'allowPromotionCodes'>> {
    const promo = row.promotionCodeId ? await loadPromotion(db, row.promotionCodeId) : null;
    const discount = promo ? { code: promo.code.code, amount: row.amountDiscount, duration: promo.coupon.duration, durationInMonths: promo.coupon.durationInMonths } : null;
    return { discount, allowPromotionCodes: row.allowPromotionCodes };
  }

  /** A code the shop applies (Stripe's `discounts`) is refused at once when unusable; without one the buyer may type a code. */
  async function presetDiscount(input: CreateCheckoutInput, unitAmount: number, now: Date) {
    if (!input.promotionCodeId) return { allowPromotionCodes: true };
    const promo = await loadPromotion(db, input.promotionCodeId);
    if (!promo) throw serverError('promotionRefused', 'This promotion code does not exist at the payment provider.');
    await assertRedeemable(db, promo, { planType: input.planType, email: input.customerEmail, now });
    return { promotionCodeId: promo.code.id, amountDiscount: couponDiscount(promo.coupon, unitAmount, PLAN_CURRENCY) };
  }

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
        tax: deps.tax?.enabled ? { behavior: deps.tax.behavior } : null,
        customerEmail: row.customerEmail,
        cancelUrl: row.cancelUrl,
        successUrl: status === 'complete' ? row.successUrl : null,
        ...(row.trialPeriodDays ? { trialDays: row.trialPeriodDays } : {}),
        ...(await checkoutDiscount(row)),
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

        const billing = billingDetailsOf(deps.tax, input);
        const outcome = cardOutcome(input.cardNumber);
        if (outcome.kind === 'declined') {
          throw serverError('sandboxCardDeclined', outcome.message, outcome.field ? [{ path: outcome.field, message: outcome.message }] : undefined);
        }

        const planType = row.planType;
        // Counted now, like Stripe's times_redeemed; checked again, as the last redemption may have gone meanwhile.
        if (row.promotionCodeId) await redeem(tx, row.promotionCodeId, { planType, email, now });
        const discount = row.promotionCodeId && row.amountDiscount > 0 ? { amount: row.amountDiscount, promotionCodeId: row.promotionCodeId } : null;
        let customerId = row.customerId;
        if (!customerId) {
          customerId = newId('cus');
          await tx.insert(sandboxCustomers).values({ id: customerId, email, createdAt: now });
        }
        await saveBillingDetails(tx, customerId, billing);
        const paymentIntentId = newId('pi');
        let subscriptionId: string | null = null;
        let invoiceId: string;
        const trialDays = row.mode === 'subscription' ? row.trialPeriodDays : null;
        if (row.mode === 'subscription') {
          // A trial's first period is the trial; the plan is first charged when it ends.
          const end = trialDays ? trialEnd(now, trialDays) : planPeriodEnd(planType, now);
          if (!end) throw new Error(`plan ${planType} has no billing period`);
          subscriptionId = newId('sub');
          await tx.insert(sandboxSubscriptions).values({
            id: subscriptionId,
            customerId,
            planType,
            unitAmount: row.unitAmount,
            currency: row.currency,
            status: trialDays ? 'trialing' : 'active',
            currentPeriodStart: now,
            currentPeriodEnd: end,
            trialEnd: trialDays ? end : null,
            promotionCodeId: row.promotionCodeId,
            discountStart: row.promotionCodeId ? now : null,
            // the list it was bought on: what a plan change charges and which members a price move picks
            metadata: row.metadata[PRICE_LIST_KEY] ? { [PRICE_LIST_KEY]: row.metadata[PRICE_LIST_KEY] } : {},
            createdAt: now,
            updatedAt: now,
          });
          const period = `(${now.toISOString().slice(0, 10)} – ${end.toISOString().slice(0, 10)})`;
          const line = trialDays
            ? { description: `Free trial of ${planName(planType)} ${period}`, amount: 0, proration: false }
            : { description: `1 × ${planName(planType)} ${period}`, amount: row.unitAmount, proration: false };
          invoiceId = (await insertInvoice(tx, now, { customerId, subscriptionId, lines: [line], billingReason: 'subscription_create', paid: true, currency: row.currency, planType, discount: trialDays ? null : discount })).id;
        } else {
          const line = { description: `${planName(planType)} — one-time payment`, amount: row.unitAmount, proration: false };
          invoiceId = (await insertInvoice(tx, now, { customerId, subscriptionId: null, lines: [line], billingReason: 'manual', paid: true, currency: row.currency, planType, paymentIntentId, discount })).id;
        }
        await tx
          .update(sandboxCheckoutSessions)
          .set({
            status: 'complete',
            paymentStatus: trialDays ? 'no_payment_required' : 'paid',
            customerEmail: email,
            customerId,
            subscriptionId,
            paymentIntentId: row.mode === 'payment' ? paymentIntentId : invoiceId,
            metadata: { ...row.metadata, card_brand: outcome.brand, card_last4: outcome.last4, card_later_charges_fail: String(outcome.laterChargesFail), card_fingerprint: cardFingerprint(input.cardNumber) },
            updatedAt: now,
          })
          .where(eq(sandboxCheckoutSessions.id, id));
        await emitAll(tx, now, [
          ['checkout.session.completed', { checkoutSessionId: id }],
          ...(subscriptionId
            ? ([
                ['customer.subscription.created', { subscriptionId }],
                ['invoice.paid', { invoiceId, subscriptionId }],
              ] as const)
            : []),
        ]);
        return { redirectUrl: row.successUrl };
      });
    },

    async createCheckoutSession(input: CreateCheckoutInput) {
      const id = newId('cs');
      const now = clock();
      // the page the checkout started on says which list's price it charges (metadata.originPage)
      const own = deps.listCharge?.(input.planType, input.metadata.originPage) ?? null;
      const unitAmount = own?.amount ?? prices()[input.planType];
      if (unitAmount === undefined) throw new ApiError(400, 'unknown_plan', `No price for plan ${input.planType}: it is sold on no price list.`);
      const promotion = await presetDiscount(input, unitAmount, now);
      const list = checkoutList(deps.catalogue(), input.planType, input.metadata.originPage);
      await db.insert(sandboxCheckoutSessions).values({
        id,
        mode: input.mode,
        planType: input.planType,
        unitAmount,
        currency: own?.currency ?? PLAN_CURRENCY,
        ...promotion,
        customerEmail: input.customerEmail?.toLowerCase() ?? null,
        customerId: input.customerId,
        successUrl: input.successUrl.replace('{CHECKOUT_SESSION_ID}', id),
        cancelUrl: input.cancelUrl,
        metadata: list ? { ...input.metadata, [PRICE_LIST_KEY]: list.slug } : input.metadata,
        trialPeriodDays: input.mode === 'subscription' ? (input.trialDays ?? null) : null,
        createdAt: now,
        updatedAt: now,
      });
      return { id, url: `/sandbox/checkout/${id}` };
    },

    async retrieveCheckoutSession(id) {
      const [row] = await db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, id)).limit(1);
      if (!row) return null;
      const charge = row.paymentIntentId ? await findCharge(db, row.paymentIntentId) : null;
      return withInvoiceTax(toSessionSnapshot(row, clock(), charge?.paymentIntentId ?? null), charge);
    },

    /** Like Stripe's recovery URL: an open session is its own page, an expired one is copied into a new session. */
    async resumeCheckoutSession(id) {
      const now = clock();
      const [row] = await db.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, id)).limit(1);
      if (!row) return null;
      const status = sessionStatus(row, now);
      if (status === 'open') return `/sandbox/checkout/${id}`;
      if (status !== 'expired') return null;
      const { id: _id, status: _status, createdAt: _createdAt, updatedAt: _updatedAt, ...copied } = row;
      const copy = newId('cs');
      await db.insert(sandboxCheckoutSessions).values({
        ...copied,
        id: copy,
        successUrl: row.successUrl.replace(id, copy),
        metadata: { ...row.metadata, recovered_from: id },
        createdAt: now,
        updatedAt: now,
      });
      return `/sandbox/checkout/${copy}`;
    },

    /** Sessions left open past their lifetime expire, with Stripe's event (what recovery mails start from). */
    async expireStaleCheckouts(now: Date) {
      const stale = await db
        .update(sandboxCheckoutSessions)
        .set({ status: 'expired', updatedAt: now })
        .where(and(eq(sandboxCheckoutSessions.status, 'open'), lt(sandboxCheckoutSessions.createdAt, new Date(now.getTime() - SANDBOX_SESSION_TTL_MS))))
        .returning({ id: sandboxCheckoutSessions.id });
      for (const { id } of stale) await emit(db, now, 'checkout.session.expired', { checkoutSessionId: id });
      return stale.length;
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
