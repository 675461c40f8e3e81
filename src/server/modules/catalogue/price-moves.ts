// "Move existing members at their next renewal" (decision record 058): after a plan's price changed
// on a list, the operator moves the list's members (those who bought the plan on it, as the
// provider's price or record says) who pay an older price to the current one. Nothing is
// prorated: each subscription is charged the new price from its next renewal (the payment port's
// movePriceAtRenewal), its discount applying as before, and each moved member gets one mail saying
// the price and the day it first applies. Running it again moves nobody twice and mails once: a
// member is moved only while the provider still charges another price, mailed only once per Price.
import { and, eq, sql } from 'drizzle-orm';
import { DEFAULT_LIST, findList, findPlan, type Catalogue } from '@shared/catalogue';
import { boughtOnList, priceLookupKey, type TaxBehavior, type WantedPrice } from '@shared/catalogue-publishing';
import { mailKeys } from '@shared/mail-intents';
import type { Db } from '../../db/client';
import { operatorAuditLog } from '../../db/schema';
import { ApiError } from '../../http/errors';
import { RENEWING_STATUSES, renewingAtAnotherAmount } from '../entitlements/entitlement-reads';
import { enqueueMail, isMailKeyTaken } from '../mail/outbox.repository';
import type { PaymentsPort } from '../payments/payments.port';

export type MovedMember = { email: string; subscriptionId: string; from: number; renewsAt: string };
export type PriceMove = { price: WantedPrice; moved: MovedMember[]; alreadyMoved: number };
export type PriceMover = (operator: string, catalogue: Catalogue, slug: string, list?: string) => Promise<PriceMove>;

const refuse = (reason: string) => new ApiError(400, 'invalid_catalogue', reason);

/** The price the members of `slug` on `listSlug` are moved to, or the reason there is none. */
function targetPrice(catalogue: Catalogue, slug: string, listSlug: string, taxBehavior: TaxBehavior): WantedPrice {
  const plan = findPlan(catalogue, slug);
  if (!plan) throw refuse(`Unknown plan "${slug}".`);
  if (plan.archived) throw refuse(`${slug} is archived: its members keep their price, there is no current one to move them to.`);
  if (plan.period === null) throw refuse(`${slug} is a one-time plan: nothing renews, so there is no price to move.`);
  const list = findList(catalogue, listSlug);
  if (!list) throw refuse(`Unknown price list "${listSlug}" (lists: ${catalogue.priceLists.map((each) => each.slug).join(', ')}).`);
  const entry = list.entries.find((each) => each.plan === slug);
  if (!entry) throw refuse(`${slug} is not sold on ${listSlug}.`);
  const price = { plan: slug, list: listSlug, amount: entry.price, currency: list.currency, period: plan.period, taxBehavior };
  return { ...price, lookupKey: priceLookupKey(price) };
}

/** Whether the plan's price on the list was ever set (`plans set-price`, the console): with no change there is nobody to move. */
async function priceChanged(db: Db, slug: string, list: string): Promise<boolean> {
  const [row] = await db
    .select({ id: operatorAuditLog.id })
    .from(operatorAuditLog)
    .where(and(eq(operatorAuditLog.action, 'catalogue_set_price'), sql`${operatorAuditLog.details}->>'plan' = ${slug}`, sql`${operatorAuditLog.details}->>'list' = ${list}`))
    .limit(1);
  return row !== undefined;
}

/** The operators' audit log (modules/admin's recordOperatorAction, given by the composition). */
export type MoveAudit = (db: Db, entry: { operator: string; action: string; targetUserId: string | null; details: Record<string, unknown> }) => Promise<void>;

export function createPriceMover(deps: { db: Db; payments: PaymentsPort; taxBehavior: TaxBehavior; audit: MoveAudit }): PriceMover {
  const { db, payments } = deps;
  return async (operator, catalogue, slug, listSlug = DEFAULT_LIST) => {
    const price = targetPrice(catalogue, slug, listSlug, deps.taxBehavior);
    if (!(await priceChanged(db, slug, listSlug))) throw refuse(`${slug}'s price on ${listSlug} never changed: every member pays the current one.`);
    // the members whose last payment was another amount (a moved member's stays the old one until the renewal)
    const candidates = await renewingAtAnotherAmount(db, slug, payments.kind, price.amount);
    const salePrices = new Set(catalogue.sales.filter((sale) => sale.list === listSlug).flatMap((sale) => sale.prices.filter((entry) => entry.plan === slug).map((entry) => entry.price)));
    const moved: MovedMember[] = [];
    let alreadyMoved = 0;
    // one at a time: the provider's rate limit, and a failure leaves the rest to the next run
    for (const candidate of candidates) {
      const subscriptionId = candidate.subscriptionId!;
      const dedupeKey = mailKeys.priceMoved(subscriptionId, price.lookupKey);
      const sub = await payments.retrieveSubscription(subscriptionId);
      if (!sub || !RENEWING_STATUSES.includes(sub.status) || sub.cancelAtPeriodEnd || sub.currency !== price.currency || !sub.currentPeriodEnd) continue;
      // a member who bought the plan on another list pays that list's price: not this list's to move
      if (boughtOnList(catalogue, slug, { list: sub.priceList ?? null, currency: sub.currency })?.slug !== listSlug) continue;
      // a sale's price is the member's deal, kept like a discount
      if (sub.unitAmount !== null && salePrices.has(sub.unitAmount)) continue;
      if (sub.unitAmount === price.amount) {
        // moved by an earlier run (mailed then), or bought at this price with a discount: nothing to do
        if (await isMailKeyTaken(db, dedupeKey)) alreadyMoved += 1;
        continue;
      }
      await payments.movePriceAtRenewal(subscriptionId, price);
      const renewsAt = sub.currentPeriodEnd.toISOString();
      await db.transaction(async (tx) => {
        const data = { planType: slug, amount: price.amount, currency: price.currency, from: renewsAt };
        await enqueueMail(tx, { template: 'price_moved', to: candidate.email, data, dedupeKey });
        await deps.audit(tx, {
          operator,
          action: 'catalogue_move_member_price',
          targetUserId: candidate.userId,
          details: { plan: slug, list: listSlug, subscriptionId, from: sub.unitAmount, to: price.amount, currency: price.currency, renewsAt },
        });
      });
      moved.push({ email: candidate.email, subscriptionId, from: sub.unitAmount ?? 0, renewsAt });
    }
    return { price, moved, alreadyMoved };
  };
}
