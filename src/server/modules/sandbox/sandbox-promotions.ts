// The sandbox provider's coupons and promotion codes, kept and applied as Stripe does: a code is
// refused at checkout when it is off, expired, used up, for other plans or (first-time codes) for
// a buyer who paid before; a redemption is counted when the checkout is paid; a subscription keeps
// its discount for the coupon's duration (once, N months, forever) on its renewals.
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { discountAmount, discountAppliesToPeriod, normalizePromotionCode, providerCodeOf, refusalMessage, type PromotionRefusal } from '@shared/promotions';
import type { PlanType } from '@shared/plans';
import type { Db } from '../../db/client';
import { sandboxCheckoutSessions, sandboxCoupons, sandboxCustomers, sandboxInvoices, sandboxPromotionCodes } from '../../db/schema';
import type { SandboxOperations } from '../payments/payments.port';
import type { ProviderDiscount, ProviderPromotions } from '../payments/promotions.port';
import type { SandboxDeps } from './sandbox-store';
import { serverError } from '../../http/server-errors';

type CodeRow = typeof sandboxPromotionCodes.$inferSelect;
type CouponRow = typeof sandboxCoupons.$inferSelect;
export type SandboxPromotion = { code: CodeRow; coupon: CouponRow };

/** Ids made from our row's id: a second mirror of one code finds the first one's objects. */
const couponIdOf = (promotionId: string) => `co_sbx_${promotionId.replaceAll('-', '')}`;
const promotionCodeIdOf = (promotionId: string) => `promo_sbx_${promotionId.replaceAll('-', '')}`;

async function withCoupon(tx: Db, code: CodeRow | undefined): Promise<SandboxPromotion | null> {
  if (!code) return null;
  const [coupon] = await tx.select().from(sandboxCoupons).where(eq(sandboxCoupons.id, code.couponId)).limit(1);
  return coupon ? { code, coupon } : null;
}

export async function loadPromotion(tx: Db, promotionCodeId: string, lock = false): Promise<SandboxPromotion | null> {
  const query = tx.select().from(sandboxPromotionCodes).where(eq(sandboxPromotionCodes.id, promotionCodeId)).limit(1);
  const [code] = lock ? await query.for('update') : await query;
  return withCoupon(tx, code);
}

/** The active promotion code a buyer typed (case-insensitive). */
async function findActiveByCode(tx: Db, typed: string): Promise<SandboxPromotion | null> {
  const [code] = await tx
    .select()
    .from(sandboxPromotionCodes)
    .where(and(sql`upper(${sandboxPromotionCodes.code}) = ${normalizePromotionCode(typed)}`, eq(sandboxPromotionCodes.active, true)))
    .orderBy(desc(sandboxPromotionCodes.createdAt))
    .limit(1);
  return withCoupon(tx, code);
}

/** Stripe's first-time rule: the buyer has a successful payment already (here: by e-mail). */
async function paidBefore(tx: Db, email: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: sandboxInvoices.id })
    .from(sandboxInvoices)
    .innerJoin(sandboxCustomers, eq(sandboxCustomers.id, sandboxInvoices.customerId))
    .where(and(sql`lower(${sandboxCustomers.email}) = ${email.toLowerCase()}`, eq(sandboxInvoices.status, 'paid'), gt(sandboxInvoices.amountDue, 0)))
    .limit(1);
  return row !== undefined;
}

async function refusalOf(tx: Db, promo: SandboxPromotion, at: { planType: PlanType; email: string | null; now: Date }): Promise<PromotionRefusal | null> {
  const { code, coupon } = promo;
  if (!code.active) return 'inactive';
  if (code.expiresAt && code.expiresAt.getTime() <= at.now.getTime()) return 'expired';
  if (code.maxRedemptions !== null && code.timesRedeemed >= code.maxRedemptions) return 'exhausted';
  if (coupon.appliesToPlans && !coupon.appliesToPlans.includes(at.planType)) return 'plan';
  if (code.firstTimeTransaction && at.email && (await paidBefore(tx, at.email))) return 'first_time';
  return null;
}

/** Refuses (400, with the reason in words) a promotion code that cannot be redeemed for this checkout now. */
export async function assertRedeemable(tx: Db, promo: SandboxPromotion, at: { planType: PlanType; email: string | null; now: Date }): Promise<void> {
  const refusal = await refusalOf(tx, promo, at);
  if (refusal) throw serverError('promotionRefused', refusalMessage(refusal, promo.code.code, at.planType));
}

/** What the coupon takes off one period's price. */
export function couponDiscount(coupon: CouponRow, amount: number, currency: string): number {
  return discountAmount(amount, currency, coupon);
}

/**
 * At payment: checks the code again under a lock (another buyer may have taken its last
 * redemption meanwhile, or the buyer's e-mail is known only now) and counts the redemption.
 */
export async function redeem(tx: Db, promotionCodeId: string, at: { planType: PlanType; email: string; now: Date }): Promise<SandboxPromotion> {
  const promo = await loadPromotion(tx, promotionCodeId, true);
  if (!promo) throw serverError('promotionRefused', 'This promotion code no longer exists.');
  await assertRedeemable(tx, promo, at);
  await tx.update(sandboxPromotionCodes).set({ timesRedeemed: promo.code.timesRedeemed + 1 }).where(eq(sandboxPromotionCodes.id, promotionCodeId));
  return promo;
}

/** The discount of a subscription's invoice for the period starting at `periodStart`, while its coupon lasts. */
export async function periodDiscount(
  tx: Db,
  sub: { promotionCodeId: string | null; discountStart: Date | null; unitAmount: number; currency: string },
  periodStart: Date,
): Promise<ProviderDiscount | null> {
  if (!sub.promotionCodeId || !sub.discountStart) return null;
  const promo = await loadPromotion(tx, sub.promotionCodeId);
  if (!promo || !discountAppliesToPeriod(promo.coupon, sub.discountStart, periodStart)) return null;
  const amount = couponDiscount(promo.coupon, sub.unitAmount, sub.currency);
  return amount > 0 ? { amount, promotionCodeId: sub.promotionCodeId } : null;
}

/**
 * The coupon of a retention offer's terms (a repeating coupon of `months` months), made once and
 * shared by every member who takes it, with a promotion code no buyer can type (inactive): a
 * subscription's discount names a promotion code here. Answers that code's id.
 */
export async function retentionCoupon(tx: Db, percentOff: number, months: number): Promise<string> {
  const couponId = `co_sbx_retention_${percentOff}pct_${months}m`;
  const promotionCodeId = `promo_sbx_retention_${percentOff}pct_${months}m`;
  await tx.insert(sandboxCoupons).values({ id: couponId, percentOff, amountOff: null, currency: null, duration: 'repeating', durationInMonths: months, appliesToPlans: null, metadata: { retention: 'true' } }).onConflictDoNothing();
  await tx
    .insert(sandboxPromotionCodes)
    .values({ id: promotionCodeId, code: `RETENTION${percentOff}X${months}M`, couponId, active: false, maxRedemptions: null, expiresAt: null, firstTimeTransaction: false, metadata: { retention: 'true' } })
    .onConflictDoNothing();
  return promotionCodeId;
}

/** The port's promotion calls and the sandbox checkout page's "Add promotion code". */
export function createSandboxPromotions(deps: Pick<SandboxDeps, 'db' | 'clock'>): ProviderPromotions & Pick<SandboxOperations, 'applyPromotionCode'> {
  const { db, clock } = deps;
  return {
    async mirror({ promotionId, terms, active }) {
      const couponId = couponIdOf(promotionId);
      const promotionCodeId = promotionCodeIdOf(promotionId);
      const metadata = { promotionId };
      await db.transaction(async (tx) => {
        await tx
          .insert(sandboxCoupons)
          .values({ id: couponId, percentOff: terms.percentOff, amountOff: terms.amountOff, currency: terms.currency, duration: terms.duration, durationInMonths: terms.durationInMonths, appliesToPlans: terms.plans, metadata })
          .onConflictDoNothing();
        await tx
          .insert(sandboxPromotionCodes)
          .values({ id: promotionCodeId, code: providerCodeOf(terms, promotionId), couponId, active, maxRedemptions: terms.maxRedemptions, expiresAt: terms.expiresAt, firstTimeTransaction: terms.firstTimeOnly, metadata })
          .onConflictDoNothing();
      });
      return { couponId, promotionCodeId };
    },

    async deactivate(promotionCodeId) {
      await db.update(sandboxPromotionCodes).set({ active: false }).where(eq(sandboxPromotionCodes.id, promotionCodeId));
    },

    async applyPromotionCode(id, typed) {
      const now = clock();
      await db.transaction(async (tx) => {
        const [session] = await tx.select().from(sandboxCheckoutSessions).where(eq(sandboxCheckoutSessions.id, id)).for('update').limit(1);
        if (!session) throw serverError('sandboxCheckoutMissing');
        if (session.status !== 'open') throw serverError('sandboxCheckoutPaid');
        if (!session.allowPromotionCodes) throw serverError('promotionRefused', 'This checkout does not take promotion codes.');
        const promo = await findActiveByCode(tx, typed);
        if (!promo) throw serverError('promotionRefused', refusalMessage('unknown', normalizePromotionCode(typed)));
        await assertRedeemable(tx, promo, { planType: session.planType, email: session.customerEmail, now });
        await tx
          .update(sandboxCheckoutSessions)
          .set({ promotionCodeId: promo.code.id, amountDiscount: couponDiscount(promo.coupon, session.unitAmount, session.currency), updatedAt: now })
          .where(eq(sandboxCheckoutSessions.id, id));
      });
    },
  };
}
