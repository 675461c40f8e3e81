// The promotion_codes table, and what the code's orders say of it (revenue); its redemptions are
// its paid checkouts, read through provider-records. Orders are read here, never written.
import { and, asc, eq, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { PromotionTerms } from '@shared/promotions';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { promotionCodes } from '../../db/schema';

export type PromotionRow = typeof promotionCodes.$inferSelect;

/** Our row, or null when the code exists already (whatever its case). */
export async function insertPromotion(db: Db, terms: PromotionTerms, createdBy: string, at: Date): Promise<PromotionRow | null> {
  const [row] = await db
    .insert(promotionCodes)
    .values({
      code: terms.code,
      percentOff: terms.percentOff,
      amountOff: terms.amountOff,
      currency: terms.currency,
      duration: terms.duration,
      durationInMonths: terms.durationInMonths,
      planTypes: terms.plans,
      firstTimeOnly: terms.firstTimeOnly,
      churnedOnly: terms.churnedOnly,
      maxRedemptions: terms.maxRedemptions,
      expiresAt: terms.expiresAt,
      createdBy,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function findPromotion(db: Db, code: string): Promise<PromotionRow | null> {
  const [row] = await db.select().from(promotionCodes).where(sql`upper(${promotionCodes.code}) = upper(${code})`).limit(1);
  return row ?? null;
}

export async function listPromotionRows(db: Db): Promise<PromotionRow[]> {
  return db.select().from(promotionCodes).orderBy(asc(promotionCodes.createdAt), asc(promotionCodes.code));
}

/** What each code's paid orders charged and took off, per currency (first payments and renewals). */
export async function revenueByCode(db: Db): Promise<{ code: string; currency: string; revenue: number; discounted: number }[]> {
  return queryRows(
    db,
    sql`SELECT promotion_code AS code, currency, COALESCE(SUM(amount), 0)::int AS revenue, COALESCE(SUM(amount_discount), 0)::int AS discounted
        FROM orders WHERE promotion_code IS NOT NULL AND status = 'paid' GROUP BY promotion_code, currency ORDER BY promotion_code, currency`,
  );
}

export async function recordMirrored(db: Db, id: string, values: { provider: string; livemode: boolean; couponId: string; promotionCodeId: string; at: Date }): Promise<void> {
  await db
    .update(promotionCodes)
    .set({ provider: values.provider, providerLivemode: values.livemode, providerCouponId: values.couponId, providerPromotionCodeId: values.promotionCodeId, providerError: null, providerSyncedAt: values.at, updatedAt: values.at })
    .where(eq(promotionCodes.id, id));
}

export async function recordProviderError(db: Db, id: string, error: string, at: Date): Promise<void> {
  await db.update(promotionCodes).set({ providerError: error.slice(0, 500), updatedAt: at }).where(eq(promotionCodes.id, id));
}

export async function clearProviderError(db: Db, id: string, at: Date): Promise<void> {
  await db.update(promotionCodes).set({ providerError: null, providerSyncedAt: at, updatedAt: at }).where(eq(promotionCodes.id, id));
}

/** Switches a code off; false when it was off already. */
export async function deactivatePromotion(db: Db, id: string, at: Date): Promise<boolean> {
  const rows = await db.update(promotionCodes).set({ active: false, updatedAt: at }).where(and(eq(promotionCodes.id, id), eq(promotionCodes.active, true))).returning({ id: promotionCodes.id });
  return rows.length > 0;
}

/** Codes whose provider copy is missing for this provider and mode, or whose last provider call failed. */
export async function promotionsToSync(db: Db, provider: string, livemode: boolean): Promise<PromotionRow[]> {
  return db
    .select()
    .from(promotionCodes)
    .where(
      or(
        isNull(promotionCodes.providerPromotionCodeId),
        ne(promotionCodes.provider, provider),
        ne(promotionCodes.providerLivemode, livemode),
        isNotNull(promotionCodes.providerError),
      ),
    )
    .orderBy(asc(promotionCodes.createdAt));
}

/** Our code of a provider's promotion code id (a code typed at the provider's checkout, a renewal's discount). */
export async function codeOfProviderPromotion(db: Db, providerPromotionCodeId: string): Promise<string | null> {
  const [row] = await db.select({ code: promotionCodes.code }).from(promotionCodes).where(eq(promotionCodes.providerPromotionCodeId, providerPromotionCodeId)).limit(1);
  return row?.code ?? null;
}

/** The active churned-only codes (the win-back mail offers one of them). */
export async function churnedOnlyCodes(db: Db): Promise<string[]> {
  const rows = await db.select({ code: promotionCodes.code }).from(promotionCodes).where(and(eq(promotionCodes.churnedOnly, true), eq(promotionCodes.active, true))).orderBy(asc(promotionCodes.code));
  return rows.map((row) => row.code);
}
