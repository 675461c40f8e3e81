// The affiliate tables, and what orders, checkout sessions and accounts say of referred buyers.
// Orders and checkout sessions are read here, never written (the entitlements core writes them).
import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { DEFAULT_AFFILIATE_TERMS, type AffiliateTerms, type CommissionStatus } from '@shared/affiliates';
import type { Db } from '../../db/client';
import { queryRows } from '../../db/query';
import { affiliateAttributions, affiliateClicks, affiliateCommissions, affiliatePayouts, affiliateProgram, affiliateReferrals, affiliates } from '../../db/schema';
import { checkoutEmailOf } from '../provider-records/checkout-session-reads';

export type AffiliateRow = typeof affiliates.$inferSelect;
export type AttributionRow = typeof affiliateAttributions.$inferSelect;
export type CommissionRow = typeof affiliateCommissions.$inferSelect;

/** The affiliates whose code, e-mail or payout e-mail holds `search`; every one without a search. */
const matching = (search: string | null) => (search ? sql`(code ILIKE ${`%${search}%`} OR email ILIKE ${`%${search}%`} OR payout_email ILIKE ${`%${search}%`})` : sql`TRUE`);

const date = (value: Date | string | null): Date | null => (value === null ? null : value instanceof Date ? value : new Date(value));

// ---------------------------------------------------------------- terms

export async function readTerms(db: Db): Promise<{ terms: AffiliateTerms; updatedBy: string | null; updatedAt: Date | null }> {
  const [row] = await db.select().from(affiliateProgram).limit(1);
  return row ? { terms: { ...DEFAULT_AFFILIATE_TERMS, ...row.terms }, updatedBy: row.updatedBy, updatedAt: row.updatedAt } : { terms: DEFAULT_AFFILIATE_TERMS, updatedBy: null, updatedAt: null };
}

export async function writeTerms(db: Db, terms: AffiliateTerms, by: string, at: Date): Promise<void> {
  await db
    .insert(affiliateProgram)
    .values({ id: 1, terms, updatedBy: by, updatedAt: at })
    .onConflictDoUpdate({ target: affiliateProgram.id, set: { terms, updatedBy: by, updatedAt: at } });
}

// ---------------------------------------------------------------- affiliates

export async function findAffiliateByUser(db: Db, userId: string): Promise<AffiliateRow | null> {
  const [row] = await db.select().from(affiliates).where(eq(affiliates.userId, userId)).limit(1);
  return row ?? null;
}

export async function findAffiliateByCode(db: Db, code: string): Promise<AffiliateRow | null> {
  const [row] = await db.select().from(affiliates).where(eq(affiliates.code, code)).limit(1);
  return row ?? null;
}

export async function findAffiliateById(db: Db, id: string): Promise<AffiliateRow | null> {
  const [row] = await db.select().from(affiliates).where(eq(affiliates.id, id)).limit(1);
  return row ?? null;
}

export async function findAffiliateByPromotionCode(db: Db, code: string): Promise<AffiliateRow | null> {
  const [row] = await db.select().from(affiliates).where(eq(affiliates.promotionCode, code.toUpperCase())).limit(1);
  return row ?? null;
}

/** The new affiliate, or null when the code is taken (the caller tries another) or the account already is one. */
export async function insertAffiliate(db: Db, values: { userId: string; email: string; code: string; joinedBy: string; at: Date }): Promise<AffiliateRow | null> {
  const [row] = await db
    .insert(affiliates)
    .values({ userId: values.userId, email: values.email.toLowerCase(), code: values.code, joinedBy: values.joinedBy, createdAt: values.at, updatedAt: values.at })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function updateAffiliate(db: Db, id: string, values: Partial<Pick<AffiliateRow, 'payoutEmail' | 'status' | 'suspendedReason' | 'promotionCode'>>, at: Date): Promise<AffiliateRow | null> {
  const [row] = await db
    .update(affiliates)
    .set({ ...values, updatedAt: at })
    .where(eq(affiliates.id, id))
    .returning();
  return row ?? null;
}

export async function findAccountByEmail(db: Db, email: string): Promise<{ id: string; email: string } | null> {
  const rows = await queryRows<{ id: string; email: string }>(db, sql`SELECT id, email FROM "user" WHERE lower(email) = ${email.toLowerCase()} LIMIT 1`);
  return rows[0] ?? null;
}

/** Whether the account holds, or held, a paid plan (the program's `members` mode). */
export async function isPayingMember(db: Db, userId: string): Promise<boolean> {
  const rows = await queryRows<{ paid: boolean }>(db, sql`SELECT EXISTS (SELECT 1 FROM orders WHERE user_id = ${userId} AND status = 'paid') OR user_has_premium_access(${userId}::uuid) AS paid`);
  return rows[0]?.paid === true;
}

// ---------------------------------------------------------------- clicks and referrals

/** Counts a click unless this browser clicked this affiliate's link today already; answers whether it counted. */
export async function recordClick(db: Db, affiliateId: string, visitor: string, day: string, at: Date): Promise<boolean> {
  const rows = await db.insert(affiliateClicks).values({ affiliateId, visitor, day, createdAt: at }).onConflictDoNothing().returning({ visitor: affiliateClicks.visitor });
  return rows.length > 0;
}

export async function recordReferral(db: Db, checkoutSessionId: string, affiliateId: string, source: 'link' | 'promotion', at: Date): Promise<void> {
  await db.insert(affiliateReferrals).values({ checkoutSessionId, affiliateId, source, createdAt: at }).onConflictDoNothing();
}

export async function referralOf(db: Db, checkoutSessionId: string): Promise<{ affiliateId: string; source: 'link' | 'promotion' } | null> {
  const [row] = await db.select({ affiliateId: affiliateReferrals.affiliateId, source: affiliateReferrals.source }).from(affiliateReferrals).where(eq(affiliateReferrals.checkoutSessionId, checkoutSessionId)).limit(1);
  return row ?? null;
}

// ---------------------------------------------------------------- attribution

export async function attributionOf(db: Db, email: string): Promise<AttributionRow | null> {
  const [row] = await db.select().from(affiliateAttributions).where(eq(affiliateAttributions.email, email.toLowerCase())).limit(1);
  return row ?? null;
}

/** The buyer is the affiliate's now (the last checkout wins); another affiliate's earlier first payment no longer counts. */
export async function attribute(db: Db, values: { email: string; affiliateId: string; source: 'link' | 'promotion'; trial: boolean; at: Date }): Promise<AttributionRow> {
  const email = values.email.toLowerCase();
  const [row] = await db
    .insert(affiliateAttributions)
    .values({ email, affiliateId: values.affiliateId, source: values.source, trial: values.trial, attributedAt: values.at })
    .onConflictDoUpdate({
      target: affiliateAttributions.email,
      set: {
        affiliateId: values.affiliateId,
        source: values.source,
        trial: sql`CASE WHEN ${affiliateAttributions.affiliateId} = ${values.affiliateId} THEN ${affiliateAttributions.trial} OR ${values.trial} ELSE ${values.trial} END`,
        firstPaidAt: sql`CASE WHEN ${affiliateAttributions.affiliateId} = ${values.affiliateId} THEN ${affiliateAttributions.firstPaidAt} ELSE NULL END`,
        attributedAt: sql`CASE WHEN ${affiliateAttributions.affiliateId} = ${values.affiliateId} THEN ${affiliateAttributions.attributedAt} ELSE ${values.at} END`,
      },
    })
    .returning();
  return row!;
}

export async function markFirstPaid(db: Db, email: string, at: Date): Promise<void> {
  await db.update(affiliateAttributions).set({ firstPaidAt: sql`COALESCE(${affiliateAttributions.firstPaidAt}, ${at})` }).where(eq(affiliateAttributions.email, email.toLowerCase()));
}

// ---------------------------------------------------------------- orders and commissions

export type OrderFacts = {
  id: string;
  userId: string | null;
  checkoutSessionId: string | null;
  planType: string;
  amount: number;
  amountTax: number | null;
  promotionCode: string | null;
  currency: string;
  status: string;
  subscriptionId: string | null;
  createdAt: Date;
  buyerEmail: string | null;
  commissionId: string | null;
  commissionStatus: CommissionStatus | null;
  commissionReason: string | null;
  /**
   * A referral of its checkout or an attribution of its buyer exists: without either (and without
   * a promotion code) no affiliate can earn from the order, and nothing more need be read for it.
   */
  referred: boolean;
};

type RawOrder = Omit<OrderFacts, 'createdAt'> & { createdAt: Date | string };

/** The orders of a checkout session or a provider subscription, with their buyer's e-mail and commission. */
export async function ordersOf(db: Db, selector: { checkoutSessionId?: string | null; subscriptionId?: string | null; orderIds?: readonly string[] }): Promise<OrderFacts[]> {
  const conditions = [];
  if (selector.checkoutSessionId) conditions.push(sql`o.checkout_session_id = ${selector.checkoutSessionId}`);
  if (selector.subscriptionId) conditions.push(sql`o.provider_subscription_id = ${selector.subscriptionId}`);
  if (selector.orderIds?.length) conditions.push(sql`o.id IN (${sql.join(selector.orderIds.map((id) => sql`${id}::uuid`), sql`, `)})`);
  if (conditions.length === 0) return [];
  const rows = await queryRows<RawOrder>(
    db,
    sql`SELECT o.id, o.user_id AS "userId", o.checkout_session_id AS "checkoutSessionId", o.plan_type AS "planType", o.amount, o.amount_tax AS "amountTax",
               o.promotion_code AS "promotionCode", o.currency, o.status, o.provider_subscription_id AS "subscriptionId", o.created_at AS "createdAt",
               buyer.email AS "buyerEmail",
               c.id AS "commissionId", c.status AS "commissionStatus", c.reason AS "commissionReason",
               (EXISTS (SELECT 1 FROM affiliate_referrals r WHERE r.checkout_session_id = o.checkout_session_id)
                 OR EXISTS (SELECT 1 FROM affiliate_attributions a WHERE a.email = buyer.email)) AS referred
          FROM orders o
          LEFT JOIN "user" u ON u.id = o.user_id
          LEFT JOIN affiliate_commissions c ON c.order_id = o.id
          CROSS JOIN LATERAL (SELECT lower(COALESCE(u.email, ${checkoutEmailOf(sql`o.checkout_session_id`)}, (SELECT ${checkoutEmailOf(sql`first_order.checkout_session_id`)} FROM orders first_order
                                            WHERE o.provider_subscription_id IS NOT NULL AND first_order.provider_subscription_id = o.provider_subscription_id
                                              AND first_order.checkout_session_id IS NOT NULL LIMIT 1))) AS email) buyer
         WHERE ${sql.join(conditions, sql` OR `)}
         ORDER BY o.created_at, o.id`,
  );
  return rows.map((row) => ({ ...row, amount: Number(row.amount), amountTax: row.amountTax === null ? null : Number(row.amountTax), createdAt: date(row.createdAt)! }));
}

/** Commissions whose order was refunded or disputed since, and reversed ones whose dispute the shop won. */
export async function commissionsToRevisit(db: Db): Promise<{ orderId: string }[]> {
  return queryRows<{ orderId: string }>(
    db,
    sql`SELECT c.order_id AS "orderId" FROM orders o JOIN affiliate_commissions c ON c.order_id = o.id
         WHERE o.status IN ('refunded', 'disputed') AND c.status IN ('pending', 'approved', 'paid')
        UNION ALL
        SELECT c.order_id FROM affiliate_commissions c JOIN orders o ON o.id = c.order_id
         WHERE c.status = 'reversed' AND c.reason = 'disputed' AND o.status = 'paid'`,
  );
}

export async function insertCommission(db: Db, values: typeof affiliateCommissions.$inferInsert): Promise<CommissionRow | null> {
  const [row] = await db.insert(affiliateCommissions).values(values).onConflictDoNothing({ target: affiliateCommissions.orderId }).returning();
  return row ?? null;
}

export async function findCommissionByOrder(db: Db, orderId: string): Promise<CommissionRow | null> {
  const [row] = await db.select().from(affiliateCommissions).where(eq(affiliateCommissions.orderId, orderId)).limit(1);
  return row ?? null;
}

/** Takes a commission back; one already paid stays tied to its payout and waits to be taken from the next. */
export async function reverseCommission(db: Db, id: string, reason: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(affiliateCommissions)
    .set({ status: 'reversed', reason, reversedAt: at, updatedAt: at })
    .where(and(eq(affiliateCommissions.id, id), inArray(affiliateCommissions.status, ['pending', 'approved', 'paid'])))
    .returning({ id: affiliateCommissions.id });
  return rows.length > 0;
}

/** A dispute the shop won: the commission stands again where it stood (paid, approved, or pending). */
export async function reinstateCommission(db: Db, row: CommissionRow, at: Date): Promise<void> {
  const paidAndNotTaken = row.payoutId !== null && row.clawbackPayoutId === null;
  const status: CommissionStatus = paidAndNotTaken ? 'paid' : row.approvedAt ? 'approved' : 'pending';
  await db
    .update(affiliateCommissions)
    .set({ status, reason: null, reversedAt: null, updatedAt: at, ...(row.clawbackPayoutId ? { payoutId: null, clawbackPayoutId: null } : {}) })
    .where(and(eq(affiliateCommissions.id, row.id), eq(affiliateCommissions.status, 'reversed')));
}

/** Pending commissions whose hold is over become approved; answers how many. */
export async function approveDue(db: Db, now: Date): Promise<number> {
  const rows = await db
    .update(affiliateCommissions)
    .set({ status: 'approved', approvedAt: now, updatedAt: now })
    .where(and(eq(affiliateCommissions.status, 'pending'), lte(affiliateCommissions.approvableAt, now)))
    .returning({ id: affiliateCommissions.id });
  return rows.length;
}

export async function countDue(db: Db, now: Date): Promise<number> {
  const rows = await queryRows<{ count: number }>(db, sql`SELECT count(*)::int AS count FROM affiliate_commissions WHERE status = 'pending' AND approvable_at <= ${now}`);
  return Number(rows[0]?.count ?? 0);
}

export type Totals = { affiliateId: string; currency: string; pending: number; approved: number; paid: number; reversed: number; clawback: number; sales: number };

/** Sums per affiliate and currency of the affiliates named; `clawback`: reversed after being paid, not yet taken from a payout. */
export async function commissionTotals(db: Db, affiliateIds: readonly string[]): Promise<Totals[]> {
  if (affiliateIds.length === 0) return [];
  const filter = sql`affiliate_id IN (${sql.join(affiliateIds.map((id) => sql`${id}::uuid`), sql`, `)})`;
  const rows = await queryRows<Totals>(
    db,
    sql`SELECT affiliate_id AS "affiliateId", currency,
               COALESCE(SUM(amount) FILTER (WHERE status = 'pending'), 0)::int AS pending,
               COALESCE(SUM(amount) FILTER (WHERE status = 'approved'), 0)::int AS approved,
               COALESCE(SUM(amount) FILTER (WHERE status = 'paid'), 0)::int AS paid,
               COALESCE(SUM(amount) FILTER (WHERE status = 'reversed'), 0)::int AS reversed,
               COALESCE(SUM(amount) FILTER (WHERE status = 'reversed' AND payout_id IS NOT NULL AND clawback_payout_id IS NULL), 0)::int AS clawback,
               (count(*) FILTER (WHERE status <> 'refused'))::int AS sales
          FROM affiliate_commissions WHERE ${filter} GROUP BY affiliate_id, currency`,
  );
  return rows.map((row) => ({ ...row, pending: Number(row.pending), approved: Number(row.approved), paid: Number(row.paid), reversed: Number(row.reversed), clawback: Number(row.clawback), sales: Number(row.sales) }));
}

export type Activity = { affiliateId: string; clicks: number; signups: number; trials: number; buyers: number; reversedBuyers: number };

/** Clicks, sign-ups and buyers of the affiliates named (a page of the console at most: each is counted by its own indexes). */
export async function activityOf(db: Db, affiliateIds: readonly string[]): Promise<Map<string, Activity>> {
  if (affiliateIds.length === 0) return new Map();
  const rows = await queryRows<Activity>(
    db,
    sql`WITH ids(id) AS (SELECT unnest(ARRAY[${sql.join(affiliateIds.map((id) => sql`${id}::uuid`), sql`, `)}]))
        SELECT ids.id AS "affiliateId",
               (SELECT count(*) FROM affiliate_clicks k WHERE k.affiliate_id = ids.id)::int AS clicks,
               (SELECT count(*) FROM affiliate_attributions a WHERE a.affiliate_id = ids.id)::int AS signups,
               (SELECT count(*) FROM affiliate_attributions a WHERE a.affiliate_id = ids.id AND a.trial)::int AS trials,
               (SELECT count(DISTINCT buyer_email) FROM affiliate_commissions c WHERE c.affiliate_id = ids.id AND c.status <> 'refused')::int AS buyers,
               (SELECT count(DISTINCT buyer_email) FROM affiliate_commissions c WHERE c.affiliate_id = ids.id AND c.status = 'reversed')::int AS "reversedBuyers"
          FROM ids`,
  );
  return new Map(rows.map((row) => [row.affiliateId, { ...row, clicks: Number(row.clicks), signups: Number(row.signups), trials: Number(row.trials), buyers: Number(row.buyers), reversedBuyers: Number(row.reversedBuyers) }]));
}

/**
 * The distinct buyers and reversed buyers of each affiliate matching `search` that has commissions
 * (what the refund-rate flag reads), in one grouped pass over their commissions, read from
 * affiliate_commissions_buyers_idx alone (migration 0062): the list's count of flagged affiliates
 * over the whole program.
 */
export async function buyersPerAffiliate(db: Db, search: string | null): Promise<{ buyers: number; reversedBuyers: number }[]> {
  const rows = await queryRows<{ buyers: number; reversedBuyers: number }>(
    db,
    sql`SELECT count(DISTINCT buyer_email) FILTER (WHERE status <> 'refused')::int AS buyers, count(DISTINCT buyer_email) FILTER (WHERE status = 'reversed')::int AS "reversedBuyers"
          FROM affiliate_commissions WHERE ${search ? sql`affiliate_id IN (SELECT id FROM affiliates WHERE ${matching(search)})` : sql`TRUE`} GROUP BY affiliate_id`,
  );
  return rows.map((row) => ({ buyers: Number(row.buyers), reversedBuyers: Number(row.reversedBuyers) }));
}

/** The whole program's commissions in `currency` by status (sums arrive as bigint strings from pg). */
export async function programTotals(db: Db, currency: string): Promise<{ pending: number; approved: number; paid: number; reversed: number }> {
  const [row] = await queryRows<Record<'pending' | 'approved' | 'paid' | 'reversed', string | number>>(
    db,
    sql`SELECT COALESCE(SUM(amount) FILTER (WHERE status = 'pending'), 0) AS pending, COALESCE(SUM(amount) FILTER (WHERE status = 'approved'), 0) AS approved,
               COALESCE(SUM(amount) FILTER (WHERE status = 'paid'), 0) AS paid, COALESCE(SUM(amount) FILTER (WHERE status = 'reversed'), 0) AS reversed
          FROM affiliate_commissions WHERE currency = ${currency}`,
  );
  return { pending: Number(row?.pending ?? 0), approved: Number(row?.approved ?? 0), paid: Number(row?.paid ?? 0), reversed: Number(row?.reversed ?? 0) };
}

/** What the buyers of the affiliates named (null: of every one) paid, per affiliate and currency, refused and reversed commissions left out. */
export async function revenueOf(db: Db, affiliateIds: readonly string[] | null): Promise<{ affiliateId: string; currency: string; amount: number }[]> {
  if (affiliateIds?.length === 0) return [];
  const filter = affiliateIds === null ? sql`TRUE` : sql`affiliate_id IN (${sql.join(affiliateIds.map((id) => sql`${id}::uuid`), sql`, `)})`;
  const rows = await queryRows<{ affiliateId: string; currency: string; amount: number }>(
    db,
    sql`SELECT affiliate_id AS "affiliateId", currency, COALESCE(SUM(base_amount), 0)::int AS amount FROM affiliate_commissions
         WHERE status IN ('pending', 'approved', 'paid') AND ${filter} GROUP BY affiliate_id, currency`,
  );
  return rows.map((row) => ({ ...row, amount: Number(row.amount) }));
}

export async function commissionHistory(db: Db, affiliateId: string, limit: number): Promise<CommissionRow[]> {
  return db.select().from(affiliateCommissions).where(eq(affiliateCommissions.affiliateId, affiliateId)).orderBy(desc(affiliateCommissions.createdAt), desc(affiliateCommissions.id)).limit(limit);
}

export async function payoutsOf(db: Db, affiliateId: string, limit: number) {
  return db.select().from(affiliatePayouts).where(eq(affiliatePayouts.affiliateId, affiliateId)).orderBy(desc(affiliatePayouts.paidAt)).limit(limit);
}

/** One page of the matching affiliates, oldest first (id breaks a tie, so pages never overlap). */
export async function listAffiliates(db: Db, search: string | null, page: { limit: number; offset: number }): Promise<AffiliateRow[]> {
  return db.select().from(affiliates).where(matching(search)).orderBy(asc(affiliates.createdAt), asc(affiliates.id)).limit(page.limit).offset(page.offset);
}

/** How many affiliates match `search`, and how many of them are suspended. */
export async function countAffiliates(db: Db, search: string | null): Promise<{ total: number; suspended: number }> {
  const rows = await queryRows<{ total: number; suspended: number }>(db, sql`SELECT count(*)::int AS total, (count(*) FILTER (WHERE status = 'suspended'))::int AS suspended FROM affiliates WHERE ${matching(search)}`);
  return { total: Number(rows[0]?.total ?? 0), suspended: Number(rows[0]?.suspended ?? 0) };
}

/** Every affiliate, for a payout run over the whole program. */
export async function everyAffiliate(db: Db): Promise<AffiliateRow[]> {
  return db.select().from(affiliates).orderBy(asc(affiliates.createdAt), asc(affiliates.id));
}

/** Marks the affiliate's approved commissions in `currency` paid by `payoutId`, and takes the outstanding clawbacks with them. */
/** Serialises payout runs (across instances): a second "mark paid" waits for the first and then finds nothing due. */
export async function lockPayoutRuns(tx: Db): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('candlewise:affiliate-payouts'))`);
}

/**
 * Records one payout of the affiliate's balance in a currency: the approved commissions become paid
 * and the clawbacks are taken by it. Answers null when the rows it changed do not add up to the
 * amount the operator saw (a commission moved meanwhile): the caller rolls the whole run back.
 */
export async function settlePayout(db: Db, affiliateId: string, currency: string, payout: { amount: number; payoutEmail: string; paidBy: string; at: Date }): Promise<string | null> {
  const [row] = await db.insert(affiliatePayouts).values({ affiliateId, amount: payout.amount, currency, payoutEmail: payout.payoutEmail, paidBy: payout.paidBy, paidAt: payout.at }).returning({ id: affiliatePayouts.id });
  const payoutId = row!.id;
  const paid = await db
    .update(affiliateCommissions)
    .set({ status: 'paid', payoutId, updatedAt: payout.at })
    .where(and(eq(affiliateCommissions.affiliateId, affiliateId), eq(affiliateCommissions.currency, currency), eq(affiliateCommissions.status, 'approved')))
    .returning({ amount: affiliateCommissions.amount });
  const clawed = await db
    .update(affiliateCommissions)
    .set({ clawbackPayoutId: payoutId, updatedAt: payout.at })
    .where(and(eq(affiliateCommissions.affiliateId, affiliateId), eq(affiliateCommissions.currency, currency), eq(affiliateCommissions.status, 'reversed'), sql`${affiliateCommissions.payoutId} IS NOT NULL`, isNull(affiliateCommissions.clawbackPayoutId)))
    .returning({ amount: affiliateCommissions.amount });
  const settled = paid.reduce((sum, line) => sum + line.amount, 0) - clawed.reduce((sum, line) => sum + line.amount, 0);
  return settled === payout.amount ? payoutId : null;
}

/** The affiliate's earned commissions not yet told in a "you earned a commission" mail. */
export async function unmailedOf(db: Db, affiliateId: string): Promise<CommissionRow[]> {
  return db
    .select()
    .from(affiliateCommissions)
    .where(and(eq(affiliateCommissions.affiliateId, affiliateId), eq(affiliateCommissions.mailed, false), inArray(affiliateCommissions.status, ['pending', 'approved'])))
    .orderBy(asc(affiliateCommissions.createdAt))
    .limit(500);
}

/**
 * Affiliates with earned commissions not yet told whose mail of `day` is not written yet: the
 * digest pass tells them (a commission that came after the day's mail waits for the next day).
 */
export async function affiliatesToTell(db: Db, day: string, limit: number): Promise<AffiliateRow[]> {
  return db
    .select()
    .from(affiliates)
    .where(
      and(
        sql`EXISTS (SELECT 1 FROM affiliate_commissions c WHERE c.affiliate_id = ${affiliates.id} AND c.mailed = false AND c.status IN ('pending', 'approved'))`,
        sql`NOT EXISTS (SELECT 1 FROM outbox o WHERE o.dedupe_key = 'affiliate_commission:' || ${affiliates.id}::text || ':' || ${day})`,
      ),
    )
    .orderBy(asc(affiliates.createdAt))
    .limit(limit);
}

export async function markMailed(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.update(affiliateCommissions).set({ mailed: true }).where(inArray(affiliateCommissions.id, [...ids]));
}

/** Card fingerprints the affiliate's own trials were started with. */
export async function trialFingerprints(db: Db, email: string): Promise<string[]> {
  const rows = await queryRows<{ fingerprint: string }>(db, sql`SELECT DISTINCT card_fingerprint AS fingerprint FROM trials WHERE email = ${email.toLowerCase()} AND card_fingerprint IS NOT NULL LIMIT 20`);
  return rows.map((row) => row.fingerprint);
}

