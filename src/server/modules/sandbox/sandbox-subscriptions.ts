// The sandbox provider's subscriptions: renewals on its clock (or the demo's "advance to period
// end"), cancellation, prorated plan changes like Stripe's, and the customer portal that shows them.
import { and, asc, desc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { planChangePrice, type WantedPrice } from '@shared/catalogue-publishing';
import { RENEWING_STATUSES } from '@shared/member-actions';
import { planPeriod, planPeriodEnd, type PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import { sandboxCustomers, sandboxInvoices, sandboxSubscriptions } from '../../db/schema';
import type { CancellationFeedback, PlanChangeInput, PlanChangePreview, SandboxOperations, SandboxPaymentsPort, SubscriptionSnapshot } from '../payments/payments.port';
import { computeProration, customerBalance } from './proration';
import { cardOf, cardsOf } from './sandbox-checkout';
import { describeInvoice, insertInvoice, insertInvoices, intervalMonths, invoicesOf, planName, type NewInvoice } from './sandbox-invoices';
import { periodDiscount, retentionCoupon } from './sandbox-promotions';
import { emit, emitAll, PRICE_LIST_KEY, type SandboxDeps } from './sandbox-store';
import { serverError } from '../../http/server-errors';

type SubscriptionRow = typeof sandboxSubscriptions.$inferSelect;

/** The subscription's metadata that mirrors a member's cancellation choice, as the Stripe adapter writes it. */
const feedbackMetadata = (feedback: CancellationFeedback) => ({ cancellation_reason: feedback.reason, retention_outcome: feedback.outcome });

function toSubscriptionSnapshot(row: SubscriptionRow, latestInvoiceId: string | null): SubscriptionSnapshot {
  return {
    id: row.id,
    customerId: row.customerId,
    status: row.status,
    planType: row.planType,
    itemId: `si_${row.id}`,
    unitAmount: row.unitAmount,
    currency: row.currency,
    currentPeriodStart: row.currentPeriodStart,
    currentPeriodEnd: row.currentPeriodEnd,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    endedAt: row.status === 'canceled' ? row.canceledAt : null,
    livemode: false,
    latestInvoiceId,
    pausedAccess: row.pausedAccess,
    pauseAccessUntil: row.pausedAccess ? row.pauseAccessUntil : null,
    pauseResumesAt: row.pausedAccess ? row.pauseResumesAt : null,
    priceList: row.metadata[PRICE_LIST_KEY] ?? null,
  };
}

/** Several subscriptions' snapshots in two statements: their rows, and each one's latest invoice. */
export async function subscriptionSnapshots(db: Db, ids: readonly string[]): Promise<Map<string, SubscriptionSnapshot>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select().from(sandboxSubscriptions).where(inArray(sandboxSubscriptions.id, [...ids]));
  const latest = await db
    .selectDistinctOn([sandboxInvoices.subscriptionId], { subscriptionId: sandboxInvoices.subscriptionId, id: sandboxInvoices.id })
    .from(sandboxInvoices)
    .where(inArray(sandboxInvoices.subscriptionId, [...ids]))
    .orderBy(sandboxInvoices.subscriptionId, desc(sandboxInvoices.createdAt), desc(sandboxInvoices.id));
  const latestOf = new Map(latest.map((invoice) => [invoice.subscriptionId, invoice.id]));
  return new Map(rows.map((row) => [row.id, toSubscriptionSnapshot(row, latestOf.get(row.id) ?? null)]));
}

/** The statuses whose period renews when it ends. */
const RENEWING = [...RENEWING_STATUSES];
/** Subscriptions renewed in one pass of the clock, one transaction: as many as a delivery claims events at once. */
export const RENEWALS_AT_ONCE = 100;

/** What a subscription whose period ended turns into: its row after the step, and what kind of step it was. */
type RenewalStep = { kind: 'end' | 'move' | 'charge'; row: SubscriptionRow };

/**
 * One renewal step of a subscription whose period has ended (null: a plan without periods). A
 * cancellation at period end, or a period that stayed unpaid to its end, ends it; a paused
 * collection moves the period on without charging (its invoice voided); otherwise the next period
 * is charged, and goes past due when the card fails later charges.
 */
function renewalStep(sub: SubscriptionRow, chargeFails: boolean): RenewalStep | null {
  if (sub.cancelAtPeriodEnd || sub.status === 'past_due') return { kind: 'end', row: { ...sub, status: 'canceled', canceledAt: sub.currentPeriodEnd } };
  const start = sub.currentPeriodEnd;
  const end = planPeriodEnd(sub.planType, start);
  if (!end) return null;
  // A member's pause ends by itself (Stripe's resumes_at): from then on the renewals charge again.
  const resumes = sub.pausedAccess !== null && sub.pauseResumesAt !== null && sub.pauseResumesAt.getTime() <= start.getTime();
  const moved = { ...sub, ...(resumes ? { pausedAccess: null, pauseAccessUntil: null, pauseResumesAt: null } : {}), currentPeriodStart: start, currentPeriodEnd: end };
  if (moved.pausedAccess) return { kind: 'move', row: moved };
  return { kind: 'charge', row: { ...moved, status: chargeFails ? 'past_due' : 'active' } };
}

const timestamp = (at: Date | null) => sql`${at?.toISOString() ?? null}::timestamptz`;

/** The renewal steps' rows, written in one statement: the columns a step changes, each row its own values. */
async function writeRenewedRows(tx: Db, rows: readonly SubscriptionRow[], at: Date): Promise<void> {
  const values = rows.map(
    (row) =>
      sql`(${row.id}, ${row.status}, ${timestamp(row.currentPeriodStart)}, ${timestamp(row.currentPeriodEnd)}, ${timestamp(row.canceledAt)}, ${row.pausedAccess}, ${timestamp(row.pauseAccessUntil)}, ${timestamp(row.pauseResumesAt)})`,
  );
  await tx.execute(sql`UPDATE sandbox_subscriptions AS s
    SET status = v.status, current_period_start = v.period_start, current_period_end = v.period_end, canceled_at = v.canceled_at,
        paused_access = v.paused_access, pause_access_until = v.pause_access_until, pause_resumes_at = v.pause_resumes_at, updated_at = ${timestamp(at)}
    FROM (VALUES ${sql.join(values, sql`, `)}) AS v(id, status, period_start, period_end, canceled_at, paused_access, pause_access_until, pause_resumes_at)
    WHERE s.id = v.id`);
}

type SubscriptionCalls = Pick<
  SandboxPaymentsPort,
  | 'retrieveSubscription'
  | 'previewPlanChange'
  | 'applyPlanChange'
  | 'cancelSubscriptionNow'
  | 'createPortalSession'
  | 'extendPeriod'
  | 'pauseCollection'
  | 'resumeCollection'
  | 'pauseForMember'
  | 'cancelAtPeriodEnd'
  | 'applyRetentionDiscount'
  | 'movePriceAtRenewal'
> &
  Pick<SandboxOperations, 'getPortal' | 'setCancelAtPeriodEnd' | 'advanceToPeriodEnd' | 'runClock'>;

/** The port's subscription calls and the sandbox portal's and clock's own. */
export function createSandboxSubscriptions(deps: SandboxDeps): SubscriptionCalls {
  const { db, clock } = deps;

  /** What a change to `planType` charges: the plan on the list the subscription was bought on, in its currency (as the Stripe adapter's). */
  function changedPrice(sub: SubscriptionRow, planType: PlanType): WantedPrice {
    const bought = { list: sub.metadata[PRICE_LIST_KEY] ?? null, currency: sub.currency };
    const price = planChangePrice(deps.catalogue(), planType, bought, clock(), deps.tax?.behavior ?? 'exclusive');
    if (!price) throw serverError('planNotSoldInCurrency', { plan: planType, currency: sub.currency });
    return price;
  }

  async function lockSubscription(tx: Db, id: string): Promise<SubscriptionRow | null> {
    const [row] = await tx.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, id)).for('update').limit(1);
    return row ?? null;
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

  /**
   * The renewal step at `at` of each of these subscriptions whose period has ended, all in one
   * transaction of a few statements (a renewal wave renews a hundred at once, where one
   * transaction each took nine round trips a renewal): each ends, moves a paused period on or
   * charges the next one (renewalStep). One that another pass or instance is renewing right now
   * is skipped: it is theirs. Answers how many took a step.
   */
  async function renewDue(ids: readonly string[], at: Date): Promise<number> {
    if (ids.length === 0) return 0;
    return db.transaction(async (tx) => {
      const subs = await tx
        .select()
        .from(sandboxSubscriptions)
        .where(and(inArray(sandboxSubscriptions.id, [...ids]), inArray(sandboxSubscriptions.status, RENEWING), lte(sandboxSubscriptions.currentPeriodEnd, at)))
        .orderBy(asc(sandboxSubscriptions.currentPeriodEnd), asc(sandboxSubscriptions.id))
        .for('update', { skipLocked: true });
      const cards = await cardsOf(tx, [...new Set(subs.map((sub) => sub.customerId))]);
      const steps = subs.flatMap((sub) => renewalStep(sub, cards.get(sub.customerId)?.laterChargesFail ?? false) ?? []);
      if (steps.length === 0) return 0;
      const charges = steps.filter((step) => step.kind === 'charge');
      const invoiceValues: NewInvoice[] = [];
      for (const { row } of charges) {
        const start = row.currentPeriodStart.toISOString().slice(0, 10);
        const end = row.currentPeriodEnd.toISOString().slice(0, 10);
        invoiceValues.push({
          customerId: row.customerId,
          subscriptionId: row.id,
          lines: [{ description: `1 × ${planName(row.planType)} (${start} – ${end})`, amount: row.unitAmount, proration: false }],
          billingReason: 'subscription_cycle',
          paid: row.status === 'active',
          currency: row.currency,
          planType: row.planType,
          discount: await periodDiscount(tx, row, row.currentPeriodStart),
        });
      }
      const invoices = await insertInvoices(tx, at, invoiceValues);
      const invoiceOf = new Map(charges.map(({ row }, index) => [row.id, invoices[index]!.id]));
      await writeRenewedRows(tx, steps.map(({ row }) => row), at);
      await emitAll(
        tx,
        at,
        steps.flatMap(({ kind, row }): [string, { subscriptionId: string; invoiceId?: string }][] => {
          const subscriptionId = row.id;
          if (kind === 'end') return [['customer.subscription.deleted', { subscriptionId }]];
          if (kind === 'move') return [['customer.subscription.updated', { subscriptionId }]];
          return [
            [row.status === 'active' ? 'invoice.paid' : 'invoice.payment_failed', { invoiceId: invoiceOf.get(subscriptionId)!, subscriptionId }],
            ['customer.subscription.updated', { subscriptionId }],
          ];
        }),
      );
      return steps.length;
    });
  }

  /** Members' pauses whose resume time came, between renewals (a quarterly plan paused for a month): lifted now. */
  async function resumeDuePauses(now: Date): Promise<void> {
    const due = await db
      .select({ id: sandboxSubscriptions.id })
      .from(sandboxSubscriptions)
      .where(and(isNotNull(sandboxSubscriptions.pausedAccess), lte(sandboxSubscriptions.pauseResumesAt, now), inArray(sandboxSubscriptions.status, RENEWING)))
      .limit(100);
    for (const { id } of due) {
      await db.transaction(async (tx) => {
        const sub = await lockSubscription(tx, id);
        if (!sub?.pausedAccess || !sub.pauseResumesAt || sub.pauseResumesAt.getTime() > now.getTime()) return;
        await tx.update(sandboxSubscriptions).set({ pausedAccess: null, pauseAccessUntil: null, pauseResumesAt: null, updatedAt: now }).where(eq(sandboxSubscriptions.id, id));
        await emit(tx, now, 'customer.subscription.updated', { subscriptionId: id });
      });
    }
  }

  /** Changes a live subscription as a provider update would (refused once it has ended) and tells of it. */
  async function updateLive(id: string, changes: (sub: SubscriptionRow, now: Date) => Partial<SubscriptionRow>): Promise<SubscriptionSnapshot> {
    const now = clock();
    return db.transaction(async (tx) => {
      const sub = await lockSubscription(tx, id);
      if (!sub) throw serverError('noCustomer');
      if (sub.status === 'canceled') throw serverError('sandboxSubscriptionEnded');
      const [updated] = await tx.update(sandboxSubscriptions).set({ ...changes(sub, now), updatedAt: now }).where(eq(sandboxSubscriptions.id, id)).returning();
      await emit(tx, now, 'customer.subscription.updated', { subscriptionId: id });
      return snapshotOf(tx, updated!);
    });
  }

  async function ownedSubscription(customerId: string, subscriptionId: string): Promise<SubscriptionRow> {
    const [row] = await db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, subscriptionId)).limit(1);
    if (!row || row.customerId !== customerId) throw serverError('sandboxSubscriptionMissing');
    return row;
  }

  function planChange(sub: SubscriptionRow, next: WantedPrice, prorationDate: number, balance: number) {
    const current = sub.planType;
    const planType = next.plan;
    const currentMonths = intervalMonths(current);
    const nextMonths = intervalMonths(planType);
    if (!currentMonths || !nextMonths) throw serverError('sandboxOnlyRecurringChanges');
    return computeProration({
      current: { amount: sub.unitAmount, intervalMonths: currentMonths, name: planName(current) },
      next: { amount: next.amount, intervalMonths: nextMonths, name: planName(planType), period: planPeriod(planType) ?? undefined },
      periodStart: sub.currentPeriodStart,
      periodEnd: sub.currentPeriodEnd,
      prorationDate: new Date(prorationDate * 1000),
      balance,
    });
  }

  return {
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
          planType: sub.planType,
          status: sub.status,
          amount: sub.unitAmount,
          currency: sub.currency,
          intervalMonths: intervalMonths(sub.planType) ?? 1,
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
        if (!sub || sub.status === 'canceled') throw serverError('sandboxSubscriptionEnded');
        if (sub.cancelAtPeriodEnd === cancel) return;
        await tx.update(sandboxSubscriptions).set({ cancelAtPeriodEnd: cancel, updatedAt: now }).where(eq(sandboxSubscriptions.id, subscriptionId));
        await emit(tx, now, 'customer.subscription.updated', { subscriptionId });
      });
    },

    async advanceToPeriodEnd(customerId, subscriptionId) {
      const sub = await ownedSubscription(customerId, subscriptionId);
      if (sub.status === 'canceled') throw serverError('sandboxSubscriptionEnded');
      if (sub.cancelAtPeriodEnd || sub.status === 'past_due') {
        // A plan that ends at its period's end ends now, as if the clock had reached it: access
        // paid for up to then is over too, so a demo shows what a member sees when a plan ends.
        const now = clock();
        if (sub.currentPeriodEnd.getTime() > now.getTime()) {
          await db.update(sandboxSubscriptions).set({ currentPeriodEnd: now, updatedAt: now }).where(eq(sandboxSubscriptions.id, subscriptionId));
        }
        await renewDue([subscriptionId], now);
        return;
      }
      await renewDue([subscriptionId], sub.currentPeriodEnd);
    },

    async runClock(now = clock()) {
      await resumeDuePauses(now);
      const due = await db
        .select({ id: sandboxSubscriptions.id })
        .from(sandboxSubscriptions)
        .where(and(inArray(sandboxSubscriptions.status, RENEWING), lte(sandboxSubscriptions.currentPeriodEnd, now)))
        .orderBy(asc(sandboxSubscriptions.currentPeriodEnd))
        .limit(RENEWALS_AT_ONCE);
      return renewDue(due.map(({ id }) => id), now);
    },

    async retrieveSubscription(id) {
      const [row] = await db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, id)).limit(1);
      return row ? snapshotOf(db, row) : null;
    },

    async previewPlanChange(input: PlanChangeInput): Promise<PlanChangePreview> {
      const [sub] = await db.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, input.subscriptionId)).limit(1);
      if (!sub) throw serverError('noCustomer');
      const balance = customerBalance(await invoicesOf(db, sub.customerId));
      const result = planChange(sub, changedPrice(sub, input.planType), input.prorationDate, balance);
      return { prorationCredit: result.prorationCredit, newPlanCharge: result.newPlanCharge, totalDue: result.totalDue, currency: sub.currency };
    },

    async applyPlanChange(input: PlanChangeInput) {
      const now = clock();
      return db.transaction(async (tx) => {
        const sub = await lockSubscription(tx, input.subscriptionId);
        if (!sub || sub.status === 'canceled') throw serverError('noCustomer');
        const balance = customerBalance(await invoicesOf(tx, sub.customerId));
        const price = changedPrice(sub, input.planType);
        const result = planChange(sub, price, input.prorationDate, balance);
        const card = await cardOf(tx, sub.customerId);
        // pending_if_incomplete: a failed charge leaves the subscription as it was.
        if (result.totalDue > 0 && card?.laterChargesFail) throw serverError('cardDeclined');
        const invoice = await insertInvoice(tx, now, { customerId: sub.customerId, subscriptionId: sub.id, lines: result.lines, billingReason: 'subscription_update', paid: true, currency: sub.currency, planType: input.planType });
        await tx
          .update(sandboxSubscriptions)
          .set({
            planType: input.planType,
            unitAmount: price.amount,
            metadata: { ...sub.metadata, [PRICE_LIST_KEY]: price.list },
            currentPeriodStart: result.newPeriodStart,
            currentPeriodEnd: result.newPeriodEnd,
            cancelAtPeriodEnd: false,
            status: 'active',
            updatedAt: now,
          })
          .where(eq(sandboxSubscriptions.id, sub.id));
        await emitAll(tx, now, [
          ['customer.subscription.updated', { subscriptionId: sub.id }],
          ['invoice.paid', { invoiceId: invoice.id, subscriptionId: sub.id }],
        ]);
        const [updated] = await tx.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, sub.id)).limit(1);
        if (!updated) throw new Error(`subscription ${sub.id} vanished`);
        return snapshotOf(tx, updated);
      });
    },

    async cancelSubscriptionNow(id) {
      const now = clock();
      return db.transaction(async (tx) => {
        const sub = await lockSubscription(tx, id);
        if (!sub) throw serverError('noCustomer');
        if (sub.status !== 'canceled') {
          await tx.update(sandboxSubscriptions).set({ status: 'canceled', canceledAt: now, updatedAt: now }).where(eq(sandboxSubscriptions.id, id));
          await emit(tx, now, 'customer.subscription.deleted', { subscriptionId: id });
        }
        const [updated] = await tx.select().from(sandboxSubscriptions).where(eq(sandboxSubscriptions.id, id)).limit(1);
        if (!updated) throw new Error(`subscription ${id} vanished`);
        return snapshotOf(tx, updated);
      });
    },

    // As Stripe does with trial_end: the plan is trialing until `until`, its period now to then, nothing charged.
    extendPeriod: (id, until) => updateLive(id, (_sub, now) => ({ status: 'trialing', trialEnd: until, currentPeriodStart: now, currentPeriodEnd: until })),
    // the renewal charges unitAmount and works its discount out from it, as Stripe's next invoice does
    movePriceAtRenewal: (id, price) => updateLive(id, (sub) => ({ unitAmount: price.amount, currency: price.currency, metadata: { ...sub.metadata, [PRICE_LIST_KEY]: price.list } })),
    pauseCollection: (id, access) => updateLive(id, () => ({ pausedAccess: access, pauseAccessUntil: null, pauseResumesAt: null })),
    resumeCollection: (id) => updateLive(id, () => ({ pausedAccess: null, pauseAccessUntil: null, pauseResumesAt: null })),
    pauseForMember: (id, pause) =>
      updateLive(id, (sub) => ({ pausedAccess: 'stop', pauseAccessUntil: pause.accessUntil, pauseResumesAt: pause.resumesAt, metadata: { ...sub.metadata, ...feedbackMetadata(pause.feedback) } })),
    cancelAtPeriodEnd: (id, feedback) =>
      updateLive(id, (sub) => ({ cancelAtPeriodEnd: true, cancellationDetails: { feedback: feedback.feedback, comment: feedback.comment }, metadata: { ...sub.metadata, ...feedbackMetadata(feedback) } })),
    async applyRetentionDiscount(id, { percentOff, months, feedback }) {
      const promotionCodeId = await retentionCoupon(db, percentOff, months);
      // as Stripe's discounts on a subscription: from its next invoice, for the coupon's months
      return updateLive(id, (sub) => ({ promotionCodeId, discountStart: sub.currentPeriodEnd, metadata: { ...sub.metadata, ...feedbackMetadata(feedback) } }));
    },

    async createPortalSession({ customerId }) {
      return { url: `/sandbox/portal/${customerId}` };
    },
  };
}
