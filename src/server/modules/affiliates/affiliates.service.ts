// The affiliate program: joining (by the person, or added by an operator), the link's clicks and
// the checkouts it starts, and one commission per attributed order, decided by the shared rules
// from what the order paid. Commissions follow the payment events the shop already handles: after
// each event (webhook, sandbox delivery, a buyer back from checkout) the orders it names are
// looked at again, so a refund or lost dispute takes the commission back and a won dispute gives
// it back, the same with Stripe and the sandbox. Safe to repeat: one commission per order.
import { randomBytes } from 'node:crypto';
import {
  affiliateLink,
  clickDay,
  decideCommission,
  durationText,
  joinRefusal,
  JOIN_REFUSAL_TEXT,
  normalizeAffiliateCode,
  ownPurchase,
  parseReferralCookie,
  payoutAddressProblem,
  payoutCsv,
  payoutRefusal,
  referralCookieValue,
  refundRateFlagged,
  ruleLabel,
  suggestAffiliateCode,
  validateTerms,
  VISITOR_ID,
  type AffiliateTerms,
  type RefusalReason,
  type TermsInput,
} from '@shared/affiliates';
import { AFFILIATES_PAGE_SIZE, type AffiliateAdminItem, type AffiliateList, type AffiliateSummary, type CommissionTotals, type MarkPaidResponse, type ProgramResponse, type TermsResponse } from '@shared/affiliates-contract';
import { isSubscriptionEvent } from '@shared/payment-events';
import { planTypes } from '@shared/plans';
import type { PromotionTermsInput } from '@shared/promotions';
import type { Db } from '../../db/client';
import { ApiError } from '../../http/errors';
import type { Logger } from '../../logger';
import { serverError } from '../../http/server-errors';
import type { PaymentEvent, PaymentsPort } from '../payments/payments.port';
import {
  activityOf,
  buyersPerAffiliate,
  approveDue,
  attribute,
  attributionOf,
  commissionHistory,
  commissionsToRevisit,
  commissionTotals,
  countAffiliates,
  countDue,
  everyAffiliate,
  findAccountByEmail,
  findAffiliateByCode,
  findAffiliateById,
  findAffiliateByPromotionCode,
  findAffiliateByUser,
  findCommissionByOrder,
  insertAffiliate,
  insertCommission,
  isPayingMember,
  listAffiliates,
  markFirstPaid,
  ordersOf,
  payoutsOf,
  programTotals,
  readTerms,
  recordClick,
  recordReferral,
  referralOf,
  reinstateCommission,
  revenueOf,
  reverseCommission,
  settlePayout,
  lockPayoutRuns,
  trialFingerprints,
  updateAffiliate,
  writeTerms,
  type AffiliateRow,
  type OrderFacts,
  type Totals,
} from './affiliates.repository';
import { ownSubscriptionIds } from '../entitlements/entitlement-reads';

export type AffiliatesDeps = {
  db: Db;
  payments: Pick<PaymentsPort, 'cardFingerprint'>;
  clock: () => Date;
  logger: Logger;
  publicUrl: string;
  /** Writes an operator's action to the audit log, as other operator actions are. */
  audit: (entry: { operator: string; action: string; details: Record<string, unknown>; targetUserId?: string }) => Promise<void>;
  /** Tells the affiliate by mail (the outbox): a commission earned (at most one mail a day), a payout sent. */
  notify?: {
    commissionEarned: (affiliate: AffiliateRow) => Promise<void>;
    payoutSent: (affiliate: AffiliateRow, payout: { id: string; amount: number; currency: string; email: string }) => Promise<void>;
  };
  /** Makes the promotion code an affiliate asks for (the promotions service: validated, audited, mirrored at the provider). */
  promotions?: { create: (input: PromotionTermsInput, operator: string) => Promise<{ code: string }> };
};

/** The promotion code an affiliate gets when they ask: this much off a buyer's first payment, first-time buyers only. */
export const AFFILIATE_PROMOTION_PERCENT_OFF = 10;

const ZERO: CommissionTotals = { pending: 0, approved: 0, paid: 0, reversed: 0 };
const REVERSING = new Set(['refunded', 'disputed']);
const CHARGE_EVENT = /^charge\./;

function totalsIn(totals: readonly Totals[], currency: string): CommissionTotals & { clawback: number; sales: number } {
  const line = totals.find((row) => row.currency === currency);
  return line ? { pending: line.pending, approved: line.approved, paid: line.paid, reversed: line.reversed, clawback: line.clawback, sales: line.sales } : { ...ZERO, clawback: 0, sales: 0 };
}

const NOTHING_OWED = 'Nothing is owed: this payout run was already marked paid, or no commission is approved yet.';
const BALANCE_MOVED = 'A commission changed while the run was being marked paid, so nothing was recorded: download the CSV again and send that one.';

export function createAffiliatesService(deps: AffiliatesDeps) {
  const { db, payments, clock, logger } = deps;

  const termsNow = async () => (await readTerms(db)).terms;

  function termsSummary(terms: AffiliateTerms) {
    return { mode: terms.mode, commission: ruleLabel(terms.rule), duration: durationText(terms), cookieDays: terms.cookieDays, holdDays: terms.holdDays, minimumPayout: terms.minimumPayout, currency: terms.currency };
  }

  async function requireAffiliate(userId: string): Promise<AffiliateRow> {
    const affiliate = await findAffiliateByUser(db, userId);
    if (!affiliate) throw serverError('affiliateNotFound', 'You are not an affiliate yet: join from the Refer & earn page.');
    return affiliate;
  }

  /** A new affiliate with a fresh code (a taken code is tried again with other random letters). */
  async function enrol(account: { id: string; email: string }, joinedBy: string): Promise<AffiliateRow> {
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const code = suggestAffiliateCode(account.email, () => randomBytes(1)[0]! / 256);
      const row = await insertAffiliate(db, { userId: account.id, email: account.email, code, joinedBy, at: clock() });
      if (row) return row;
      const existing = await findAffiliateByUser(db, account.id);
      if (existing) return existing;
    }
    throw new Error('could not find a free affiliate code');
  }

  // ------------------------------------------------------------ commissions

  /** The card fingerprints of a subscription, and of the affiliate's own subscriptions and trials. */
  async function fingerprint(subscriptionId: string | null): Promise<string[]> {
    if (!subscriptionId) return [];
    const value = await payments.cardFingerprint(subscriptionId).catch((error: unknown) => {
      logger.warn({ err: error, subscriptionId }, 'card fingerprint unknown: the own-card check is skipped for this payment');
      return null;
    });
    return value ? [value] : [];
  }

  async function ownPurchaseOf(order: OrderFacts, affiliate: AffiliateRow, fromCheckout: boolean): Promise<RefusalReason | null> {
    const plain = ownPurchase({ userId: order.userId, email: order.buyerEmail, cardFingerprints: [] }, { userId: affiliate.userId, email: affiliate.email, cardFingerprints: [] });
    if (plain || !fromCheckout) return plain;
    const buyerCards = await fingerprint(order.subscriptionId);
    if (buyerCards.length === 0) return null;
    const ownCards = [...(await trialFingerprints(db, affiliate.email))];
    for (const subscriptionId of await ownSubscriptionIds(db, affiliate.userId)) ownCards.push(...(await fingerprint(subscriptionId)));
    return ownPurchase({ userId: null, email: null, cardFingerprints: buyerCards }, { userId: null, email: null, cardFingerprints: ownCards });
  }

  /** The buyers' attributions read during one reconcile: a subscription's orders share their buyer. */
  type Attributions = Map<string, Awaited<ReturnType<typeof attributionOf>>>;

  /** Who an order earns for: a promotion code bound to an affiliate, else the checkout's link, else the buyer's attribution. */
  async function affiliateOf(order: OrderFacts, known: Attributions): Promise<{ affiliate: AffiliateRow; source: 'link' | 'promotion'; fromCheckout: boolean } | null> {
    if (order.promotionCode) {
      const affiliate = await findAffiliateByPromotionCode(db, order.promotionCode);
      if (affiliate) return { affiliate, source: 'promotion', fromCheckout: order.checkoutSessionId !== null };
    }
    if (order.checkoutSessionId) {
      const referral = await referralOf(db, order.checkoutSessionId);
      const affiliate = referral ? await findAffiliateById(db, referral.affiliateId) : null;
      if (referral && affiliate) return { affiliate, source: referral.source, fromCheckout: true };
    }
    if (!order.buyerEmail) return null;
    if (!known.has(order.buyerEmail)) known.set(order.buyerEmail, await attributionOf(db, order.buyerEmail));
    const attribution = known.get(order.buyerEmail) ?? null;
    const affiliate = attribution ? await findAffiliateById(db, attribution.affiliateId) : null;
    return attribution && affiliate ? { affiliate, source: attribution.source, fromCheckout: false } : null;
  }

  async function decide(order: OrderFacts, terms: () => Promise<AffiliateTerms>, known: Attributions): Promise<void> {
    const found = await affiliateOf(order, known);
    if (!found) return;
    const { affiliate, source, fromCheckout } = found;
    const own = await ownPurchaseOf(order, affiliate, fromCheckout);
    let firstPaidAt: Date | null = null;
    if (!own && order.buyerEmail) {
      const attribution = fromCheckout ? await attribute(db, { email: order.buyerEmail, affiliateId: affiliate.id, source, trial: order.amount === 0, at: clock() }) : await attributionOf(db, order.buyerEmail);
      known.delete(order.buyerEmail);
      firstPaidAt = attribution?.firstPaidAt ?? null;
    }
    const decision = decideCommission({ terms: await terms(), plan: order.planType, order: { amount: order.amount, amountTax: order.amountTax, paidAt: order.createdAt }, firstPaidAt, affiliateSuspended: affiliate.status === 'suspended', ownPurchase: own });
    if (decision.status === 'none') return;
    const at = clock();
    const base = { affiliateId: affiliate.id, orderId: order.id, buyerEmail: order.buyerEmail, planType: order.planType, currency: order.currency, baseAmount: decision.base };
    if (decision.status === 'refused') {
      if (decision.base > 0) await insertCommission(db, { ...base, amount: 0, status: 'refused', reason: decision.reason });
      logger.info({ orderId: order.id, affiliate: affiliate.code, reason: decision.reason }, 'no commission for this payment');
      return;
    }
    const written = await insertCommission(db, { ...base, amount: decision.amount, status: 'pending', approvableAt: decision.approvableAt });
    if (!written) return;
    if (order.buyerEmail) {
      await markFirstPaid(db, order.buyerEmail, order.createdAt);
      known.delete(order.buyerEmail);
    }
    // a refund that came with (or before) this event is applied at once
    if (REVERSING.has(order.status)) await reverseCommission(db, written.id, order.status, at);
    logger.info({ orderId: order.id, affiliate: affiliate.code, amount: decision.amount, currency: order.currency }, 'commission earned');
    await deps.notify?.commissionEarned(affiliate).catch((error: unknown) => logger.warn({ err: error }, 'commission mail not queued'));
  }

  /** A refund or lost dispute takes the commission back; a dispute won gives it back. */
  async function revisit(order: OrderFacts): Promise<void> {
    if (!order.commissionId || !order.commissionStatus) return;
    if (REVERSING.has(order.status) && ['pending', 'approved', 'paid'].includes(order.commissionStatus)) {
      if (await reverseCommission(db, order.commissionId, order.status, clock())) logger.info({ orderId: order.id, reason: order.status }, 'commission reversed');
      return;
    }
    if (order.status === 'paid' && order.commissionStatus === 'reversed' && order.commissionReason === 'disputed') {
      const row = await findCommissionByOrder(db, order.id);
      if (row) await reinstateCommission(db, row, clock());
    }
  }

  async function reconcile(orders: readonly OrderFacts[]): Promise<void> {
    if (orders.length === 0) return;
    // read once, and only when an order earns: most payments have no affiliate
    let terms: Promise<AffiliateTerms> | null = null;
    const termsOnce = () => (terms ??= termsNow());
    const known: Attributions = new Map();
    // An order no promotion code, referral or attribution ties to an affiliate earns nothing (most
    // renewals), and costs no read of its own; once one order was decided, its buyer may have been
    // attributed since the orders were read, so the later ones are decided as well.
    let decided = false;
    for (const order of orders) {
      if (order.commissionId) await revisit(order);
      else if ((order.status === 'paid' || REVERSING.has(order.status)) && (decided || order.promotionCode || order.referred)) {
        decided = true;
        // a payment refunded before we saw it paid still records its (reversed) commission
        await decide(order, termsOnce, known);
      }
    }
  }

  // ------------------------------------------------------------ summaries

  async function adminItems(rows: readonly AffiliateRow[], terms: AffiliateTerms): Promise<AffiliateAdminItem[]> {
    const ids = rows.map((row) => row.id);
    const [totals, activity, revenue] = await Promise.all([commissionTotals(db, ids), activityOf(db, ids), revenueOf(db, ids)]);
    return rows.map((row) => {
      const mine = totals.filter((line) => line.affiliateId === row.id);
      const main = totalsIn(mine, terms.currency);
      const act = activity.get(row.id) ?? { clicks: 0, signups: 0, trials: 0, buyers: 0, reversedBuyers: 0 };
      return {
        id: row.id,
        code: row.code,
        email: row.email,
        userId: row.userId,
        status: row.status,
        suspendedReason: row.suspendedReason,
        flagged: refundRateFlagged(act.buyers, act.reversedBuyers),
        clicks: act.clicks,
        buyers: act.buyers,
        reversedBuyers: act.reversedBuyers,
        sales: mine.reduce((sum, line) => sum + line.sales, 0),
        revenue: revenue.filter((line) => line.affiliateId === row.id).map((line) => ({ currency: line.currency, amount: line.amount })),
        currency: terms.currency,
        commissions: { pending: main.pending, approved: main.approved, paid: main.paid, reversed: main.reversed },
        balance: main.approved - main.clawback,
        payoutEmail: row.payoutEmail,
        promotionCode: row.promotionCode,
        createdAt: row.createdAt.toISOString(),
      };
    });
  }

  async function requireById(id: string): Promise<AffiliateRow> {
    const row = await findAffiliateById(db, id);
    if (!row) throw serverError('affiliateNotFound', 'No affiliate with this id.');
    return row;
  }

  const one = async (row: AffiliateRow) => (await adminItems([row], await termsNow()))[0]!;

  /** The five affiliates whose buyers paid the most in `currency`, with all they brought in. */
  async function topByRevenue(revenue: readonly { affiliateId: string; currency: string; amount: number }[], currency: string): Promise<AffiliateList['topByRevenue']> {
    const top = revenue.filter((line) => line.currency === currency && line.amount > 0).sort((a, b) => b.amount - a.amount || a.affiliateId.localeCompare(b.affiliateId)).slice(0, 5);
    const affiliateRows = await Promise.all(top.map((line) => findAffiliateById(db, line.affiliateId)));
    return affiliateRows
      .filter((row): row is AffiliateRow => row !== null)
      .map((row) => ({ id: row.id, code: row.code, revenue: revenue.filter((line) => line.affiliateId === row.id).map((line) => ({ currency: line.currency, amount: line.amount })) }));
  }

  /** Balances to pay per affiliate and currency: approved, less paid commissions taken back since. */
  /** Each affiliate's balance per currency and why it cannot be paid, if so; read through `source` (the run's transaction when marking paid). */
  async function dueLines(affiliateIds: readonly string[] | null, source: Db = db) {
    const { terms } = await readTerms(source);
    const rows: AffiliateRow[] = [];
    if (affiliateIds === null) rows.push(...(await everyAffiliate(source)));
    else for (const id of affiliateIds) rows.push(...[await findAffiliateById(source, id)].filter((row): row is AffiliateRow => row !== null));
    const totals = await commissionTotals(source, rows.map((row) => row.id));
    const lines: { affiliate: AffiliateRow; currency: string; balance: number; refusal: string | null }[] = [];
    for (const affiliate of rows) {
      const mine = totals.filter((line) => line.affiliateId === affiliate.id);
      if (mine.length === 0) lines.push({ affiliate, currency: terms.currency, balance: 0, refusal: 'Nothing to pay.' });
      for (const line of mine) {
        const balance = line.approved - line.clawback;
        lines.push({ affiliate, currency: line.currency, balance, refusal: payoutRefusal(balance, terms.minimumPayout, affiliate.payoutEmail) });
      }
    }
    return lines;
  }

  return {
    // ---------------------------------------------------------- the member's side

    async program(user: { id: string }): Promise<ProgramResponse> {
      const terms = await termsNow();
      const affiliate = await findAffiliateByUser(db, user.id);
      const refusal = joinRefusal(terms.mode, { isAffiliate: affiliate !== null, isMember: terms.mode === 'members' && !affiliate ? await isPayingMember(db, user.id) : true });
      return { joined: affiliate !== null, refusal: refusal && refusal !== 'already_joined' ? JOIN_REFUSAL_TEXT[refusal] : null, terms: termsSummary(terms) };
    },

    async join(user: { id: string; email: string }): Promise<AffiliateSummary> {
      const terms = await termsNow();
      const existing = await findAffiliateByUser(db, user.id);
      const refusal = joinRefusal(terms.mode, { isAffiliate: existing !== null, isMember: terms.mode === 'members' && !existing ? await isPayingMember(db, user.id) : true });
      if (refusal === 'already_joined') return this.summary(user.id);
      if (refusal) throw serverError('affiliateJoinRefused', JOIN_REFUSAL_TEXT[refusal]);
      const row = await enrol(user, 'self');
      logger.info({ affiliate: row.code }, 'affiliate joined');
      return this.summary(user.id);
    },

    async summary(userId: string): Promise<AffiliateSummary> {
      const affiliate = await requireAffiliate(userId);
      const terms = await termsNow();
      const [totals, activity, history, payouts] = await Promise.all([commissionTotals(db, [affiliate.id]), activityOf(db, [affiliate.id]), commissionHistory(db, affiliate.id, 100), payoutsOf(db, affiliate.id, 50)]);
      const main = totalsIn(totals, terms.currency);
      const act = activity.get(affiliate.id);
      return {
        code: affiliate.code,
        link: affiliateLink(deps.publicUrl, affiliate.code),
        clicks: act?.clicks ?? 0,
        sales: totals.reduce((sum, line) => sum + line.sales, 0),
        currency: terms.currency,
        commissions: { pending: main.pending, approved: main.approved, paid: main.paid, reversed: main.reversed },
        status: affiliate.status,
        signups: act?.signups ?? 0,
        trials: act?.trials ?? 0,
        balance: main.approved - main.clawback,
        payoutEmail: affiliate.payoutEmail,
        promotionCode: affiliate.promotionCode,
        otherCurrencies: totals.filter((line) => line.currency !== terms.currency).map((line) => ({ currency: line.currency, pending: line.pending, approved: line.approved, paid: line.paid, reversed: line.reversed })),
        history: history.map((row) => ({
          id: row.id,
          at: row.createdAt.toISOString(),
          planType: row.planType,
          currency: row.currency,
          base: row.baseAmount,
          amount: row.amount,
          status: row.status,
          reason: row.reason,
          approvableAt: row.approvableAt?.toISOString() ?? null,
        })),
        payouts: payouts.map((row) => ({ id: row.id, at: row.paidAt.toISOString(), amount: row.amount, currency: row.currency, email: row.payoutEmail })),
        terms: termsSummary(terms),
      };
    },

    async setPayoutAddress(userId: string, raw: string): Promise<AffiliateSummary> {
      const affiliate = await requireAffiliate(userId);
      const problem = payoutAddressProblem(raw);
      if (problem) throw serverError('affiliateRefused', problem);
      await updateAffiliate(db, affiliate.id, { payoutEmail: raw.trim().toLowerCase() }, clock());
      return this.summary(userId);
    },

    /**
     * A promotion code bound to the affiliate, made on request: their code, 10 % off a first-time
     * buyer's first payment. A buyer using it counts as theirs whatever link they came from.
     */
    async requestPromotionCode(userId: string): Promise<AffiliateSummary> {
      const affiliate = await requireAffiliate(userId);
      if (affiliate.promotionCode) return this.summary(userId);
      if (affiliate.status !== 'active') throw serverError('affiliateJoinRefused', 'Your affiliate account is suspended: no promotion code can be made for it.');
      if (!deps.promotions) throw serverError('affiliateRefused', 'Promotion codes are not available here.');
      let made: string | null = null;
      for (const candidate of [affiliate.code, `${affiliate.code}-${AFFILIATE_PROMOTION_PERCENT_OFF}`, `${affiliate.code}-${randomBytes(2).toString('hex').toUpperCase()}`]) {
        try {
          made = (await deps.promotions.create({ code: candidate, percentOff: AFFILIATE_PROMOTION_PERCENT_OFF, duration: 'once', firstTimeOnly: true }, `affiliate:${affiliate.code}`)).code;
          break;
        } catch (error) {
          // taken by another code: try the next name
          if (!(error instanceof ApiError) || error.status !== 409) throw error;
        }
      }
      if (!made) throw serverError('affiliateConflict', 'No free promotion code name was found: ask the shop to bind one to you.');
      await updateAffiliate(db, affiliate.id, { promotionCode: made }, clock());
      return this.summary(userId);
    },

    // ---------------------------------------------------------- links and checkouts

    /**
     * A visit with `?ref=CODE`: counts the click (once per browser and day) and answers the
     * referral cookie to set, or null for a code that is malformed, unknown or suspended (no cookie).
     */
    async click(input: { ref: string; cookie: string | undefined; browserToken: string | null }): Promise<{ value: string; maxAgeSeconds: number } | null> {
      const code = normalizeAffiliateCode(input.ref);
      if (!code) return null;
      const affiliate = await findAffiliateByCode(db, code);
      if (!affiliate || affiliate.status !== 'active') return null;
      const visitor = parseReferralCookie(input.cookie)?.visitor ?? (input.browserToken && VISITOR_ID.test(input.browserToken) ? input.browserToken : randomBytes(16).toString('base64url'));
      const now = clock();
      await recordClick(db, affiliate.id, visitor, clickDay(now), now);
      return { value: referralCookieValue(code, visitor), maxAgeSeconds: (await termsNow()).cookieDays * 86_400 };
    },

    /** A checkout started with a referral cookie: the link's affiliate (a suspended one earns nothing from it). Never throws. */
    async recordCheckout(checkoutSessionId: string, cookie: string | undefined): Promise<void> {
      const referral = parseReferralCookie(cookie);
      if (!referral) return;
      try {
        const affiliate = await findAffiliateByCode(db, referral.code);
        if (affiliate) await recordReferral(db, checkoutSessionId, affiliate.id, 'link', clock());
      } catch (error) {
        logger.error({ err: error, checkoutSessionId }, 'referral of a checkout not recorded');
      }
    },

    /** After each applied payment event: the orders it names earn, or give back, their commission. */
    async afterPaymentEvent(event: Pick<PaymentEvent, 'type' | 'checkoutSessionId' | 'subscriptionId'>): Promise<void> {
      // a subscription's own events write no order (a renewal's customer.subscription.updated):
      // its orders earn on the events that write them, and a retried one reconciles again
      const writesOrders = event.checkoutSessionId || (event.subscriptionId && !isSubscriptionEvent(event.type));
      if (writesOrders) await reconcile(await ordersOf(db, { checkoutSessionId: event.checkoutSessionId ?? null, subscriptionId: event.subscriptionId ?? null }));
      if (CHARGE_EVENT.test(event.type)) await this.revisitReversals();
    },

    /** Commissions whose order was refunded or disputed (or whose dispute was won) since they were written. */
    async revisitReversals(): Promise<number> {
      const ids = (await commissionsToRevisit(db)).map((row) => row.orderId);
      if (ids.length === 0) return 0;
      await reconcile(await ordersOf(db, { orderIds: ids }));
      return ids.length;
    },

    // ---------------------------------------------------------- the console

    /** One page of the affiliates matching `search` (page from 1), with counts over all that match. */
    async list(rawSearch: string | null, page = 1): Promise<AffiliateList> {
      const search = rawSearch?.trim() || null;
      const terms = await termsNow();
      // over the whole program (or all that match): grouped passes over the commissions, nothing per affiliate
      const [rows, counts, buyers, program, revenue, dueToApprove] = await Promise.all([
        listAffiliates(db, search, { limit: AFFILIATES_PAGE_SIZE, offset: (page - 1) * AFFILIATES_PAGE_SIZE }),
        countAffiliates(db, search),
        buyersPerAffiliate(db, search),
        programTotals(db, terms.currency),
        revenueOf(db, null),
        countDue(db, clock()),
      ]);
      return {
        affiliates: await adminItems(rows, terms),
        page,
        pageSize: AFFILIATES_PAGE_SIZE,
        totals: {
          affiliates: counts.total,
          flagged: buyers.filter((line) => refundRateFlagged(line.buyers, line.reversedBuyers)).length,
          suspended: counts.suspended,
          currency: terms.currency,
          commissions: program,
          dueToApprove,
        },
        topByRevenue: await topByRevenue(revenue, terms.currency),
      };
    },

    /** The operator adds an affiliate by the e-mail of an existing account. */
    async add(rawEmail: string, operator: string): Promise<AffiliateAdminItem> {
      const email = rawEmail.trim().toLowerCase();
      if (payoutAddressProblem(email)) throw serverError('affiliateRefused', `Not an e-mail address: ${rawEmail.slice(0, 100)}`);
      const account = await findAccountByEmail(db, email);
      if (!account) throw serverError('affiliateNotFound', `No account uses ${email}: they sign up first (or buy), then you add them.`);
      const existing = await findAffiliateByUser(db, account.id);
      const row = existing ?? (await enrol(account, operator));
      if (!existing) await deps.audit({ operator, action: 'add_affiliate', targetUserId: account.id, details: { email, code: row.code } });
      return one(row);
    },

    async suspend(id: string, reason: string | null, operator: string): Promise<AffiliateAdminItem> {
      const row = await requireById(id);
      const updated = await updateAffiliate(db, row.id, { status: 'suspended', suspendedReason: reason?.trim() || null }, clock());
      await deps.audit({ operator, action: 'suspend_affiliate', targetUserId: row.userId, details: { code: row.code, reason } });
      return one(updated ?? row);
    },

    async reinstate(id: string, operator: string): Promise<AffiliateAdminItem> {
      const row = await requireById(id);
      const updated = await updateAffiliate(db, row.id, { status: 'active', suspendedReason: null }, clock());
      await deps.audit({ operator, action: 'reinstate_affiliate', targetUserId: row.userId, details: { code: row.code } });
      return one(updated ?? row);
    },

    /** Binds a promotion code to an affiliate (null: unbinds): an order with it earns for them, whatever cookie the buyer had. */
    async bindPromotionCode(id: string, rawCode: string | null, operator: string): Promise<AffiliateAdminItem> {
      const row = await requireById(id);
      const code = rawCode === null || rawCode.trim() === '' ? null : rawCode.trim().toUpperCase();
      if (code !== null && !/^[A-Z0-9_-]{2,40}$/.test(code)) throw serverError('affiliateRefused', 'A promotion code is 2 to 40 letters, digits, "-" or "_".');
      const holder = code ? await findAffiliateByPromotionCode(db, code) : null;
      if (holder && holder.id !== row.id) throw serverError('affiliateConflict', `${code} is already bound to ${holder.code}.`);
      const updated = await updateAffiliate(db, row.id, { promotionCode: code }, clock());
      await deps.audit({ operator, action: 'bind_affiliate_promotion_code', targetUserId: row.userId, details: { code: row.code, promotionCode: code } });
      return one(updated ?? row);
    },

    async terms(): Promise<TermsResponse> {
      const { terms, updatedAt, updatedBy } = await readTerms(db);
      const percent = terms.rule.kind === 'percent';
      return {
        mode: terms.mode,
        kind: terms.rule.kind,
        value: percent ? terms.rule.value / 100 : terms.rule.value,
        plans: Object.fromEntries(Object.entries(terms.plans).map(([plan, rule]) => [plan, { kind: rule.kind, value: rule.kind === 'percent' ? rule.value / 100 : rule.value }])),
        duration: terms.duration,
        durationMonths: terms.durationMonths,
        cookieDays: terms.cookieDays,
        holdDays: terms.holdDays,
        minimumPayout: terms.minimumPayout,
        currency: terms.currency,
        updatedAt: updatedAt?.toISOString() ?? null,
        updatedBy,
      };
    },

    async setTerms(input: TermsInput, operator: string): Promise<TermsResponse> {
      const checked = validateTerms(input, await termsNow(), planTypes());
      if (!checked.ok) throw serverError('affiliateRefused', checked.problems.map((problem) => problem.message).join(' '), checked.problems);
      await writeTerms(db, checked.terms, operator, clock());
      await deps.audit({ operator, action: 'set_affiliate_terms', details: { ...checked.terms } });
      return this.terms();
    },

    // ---------------------------------------------------------- payouts

    async approveDue(operator: string): Promise<{ approved: number }> {
      const approved = await approveDue(db, clock());
      await deps.audit({ operator, action: 'approve_affiliate_commissions', details: { approved } });
      return { approved };
    },

    /** The mass-payout file: one line per affiliate and currency whose balance reaches the minimum and who gave an address. */
    async payoutCsv(): Promise<string> {
      const lines = (await dueLines(null)).filter((line) => line.refusal === null);
      return payoutCsv(lines.map((line) => ({ email: line.affiliate.payoutEmail!, amount: line.balance, currency: line.currency, reference: `${line.affiliate.code} commissions` })));
    },

    /**
     * Marks the balances of the CSV paid (all, or the affiliates named) in one transaction: every
     * payout of the run is recorded or none is. Runs are serialised, so a second click (or a second
     * operator) finds nothing owed and gets a clear 409 instead of paying twice. Audited and mailed
     * once committed.
     */
    async markPaid(affiliateIds: readonly string[] | null, operator: string): Promise<MarkPaidResponse> {
      const at = clock();
      const { paid, skipped, payouts } = await db.transaction(async (tx) => {
        await lockPayoutRuns(tx);
        const lines = await dueLines(affiliateIds, tx);
        if (!lines.some((line) => line.balance > 0)) throw serverError('affiliateConflict', NOTHING_OWED);
        const paid: MarkPaidResponse['paid'] = [];
        const skipped: MarkPaidResponse['skipped'] = [];
        const payouts: { affiliate: AffiliateRow; payoutId: string; amount: number; currency: string; email: string }[] = [];
        for (const line of lines) {
          if (line.refusal) {
            if (affiliateIds !== null) skipped.push({ affiliateId: line.affiliate.id, code: line.affiliate.code, reason: line.refusal });
            continue;
          }
          const email = line.affiliate.payoutEmail!;
          const payoutId = await settlePayout(tx, line.affiliate.id, line.currency, { amount: line.balance, payoutEmail: email, paidBy: operator, at });
          if (!payoutId) throw serverError('affiliateConflict', BALANCE_MOVED);
          paid.push({ affiliateId: line.affiliate.id, code: line.affiliate.code, email, amount: line.balance, currency: line.currency });
          payouts.push({ affiliate: line.affiliate, payoutId, amount: line.balance, currency: line.currency, email });
        }
        return { paid, skipped, payouts };
      });
      for (const { affiliate, payoutId, amount, currency, email } of payouts) {
        await deps.audit({ operator, action: 'pay_affiliate', targetUserId: affiliate.userId, details: { code: affiliate.code, payoutId, amount, currency, email } });
        await deps.notify?.payoutSent(affiliate, { id: payoutId, amount, currency, email }).catch((error: unknown) => logger.warn({ err: error }, 'payout mail not queued'));
      }
      return { paid, skipped };
    },
  };
}

export type AffiliatesService = ReturnType<typeof createAffiliatesService>;
