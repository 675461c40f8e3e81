// What the catalogue sells at Stripe (decision record 058): one Stripe Price per plan, list, amount,
// currency, period and tax behaviour, found again by its lookup key. A Price is never edited: a new
// amount is a new key, so a price change makes a new Price for new buyers while every subscription
// keeps the Price it was bought at. Pure: the publisher, the checkout and the doctor share it.
import { DEFAULT_LIST, findList, findPlan, homeEntry, listOfPage, rollingSaleEnd, runningSale, samePeriod, wholeMonths, type BillingPeriod, type Catalogue } from './catalogue';

export type TaxBehavior = 'exclusive' | 'inclusive';

/** One Stripe Price the catalogue needs. */
export type WantedPrice = {
  lookupKey: string;
  plan: string;
  /** The price list ('/' for the default page). */
  list: string;
  /** Minor units of `currency`. */
  amount: number;
  /** Lower-case ISO code, as Stripe writes it. */
  currency: string;
  /** null: a one-time price (the plan never expires). */
  period: BillingPeriod | null;
  taxBehavior: TaxBehavior;
};

/** Stripe's limit on a lookup key's length. */
const MAX_LOOKUP_KEY = 200;

/** 'cw_default_monthly_4700_usd_1month_exclusive': everything a Price is, so two Prices never share one. */
export function priceLookupKey(price: Omit<WantedPrice, 'lookupKey'>): string {
  const list = price.list === DEFAULT_LIST ? 'default' : price.list;
  const period = price.period === null ? 'once' : `${price.period.count}${price.period.unit}`;
  return `cw_${list}_${price.plan}_${price.amount}_${price.currency}_${period}_${price.taxBehavior}`.slice(0, MAX_LOOKUP_KEY);
}

function wanted(catalogue: Catalogue, plan: string, list: string, amount: number, taxBehavior: TaxBehavior): WantedPrice | null {
  const record = findPlan(catalogue, plan);
  const priceList = findList(catalogue, list);
  if (!record || !priceList) return null;
  const price = { plan, list, amount, currency: priceList.currency, period: record.period, taxBehavior };
  return { ...price, lookupKey: priceLookupKey(price) };
}

/**
 * Every Price the catalogue sells: each plan that is not archived at its price on every list that
 * sells it, and at every sale's price (a scheduled sale's Prices exist before it starts).
 */
export function wantedPrices(catalogue: Catalogue, taxBehavior: TaxBehavior): WantedPrice[] {
  const visible = (plan: string) => findPlan(catalogue, plan)?.archived === false;
  const all = [
    ...catalogue.priceLists.flatMap((list) => list.entries.filter((entry) => visible(entry.plan)).map((entry) => wanted(catalogue, entry.plan, list.slug, entry.price, taxBehavior))),
    ...catalogue.sales.flatMap((sale) => sale.prices.filter((entry) => visible(entry.plan)).map((entry) => wanted(catalogue, entry.plan, sale.list, entry.price, taxBehavior))),
  ].filter((price): price is WantedPrice => price !== null);
  return [...new Map(all.map((price) => [price.lookupKey, price])).values()];
}

/**
 * The Price a checkout of `plan` started on `originPage` charges at `now`: the page's list (else
 * the first list that sells the plan), its running sale's price for the plan, else the list's.
 */
export function chargedPrice(catalogue: Catalogue, plan: string, originPage: string | undefined, now: Date, taxBehavior: TaxBehavior): WantedPrice | null {
  const pageList = findList(catalogue, listOfPage(originPage ?? '/'));
  const list = pageList?.entries.some((entry) => entry.plan === plan) ? pageList : homeEntry(catalogue, plan)?.list;
  if (!list) return null;
  const listed = list.entries.find((entry) => entry.plan === plan)!.price;
  const sale = runningSale(catalogue, list.slug, now, rollingSaleEnd)?.prices.find((entry) => entry.plan === plan)?.price;
  return wanted(catalogue, plan, list.slug, sale ?? listed, taxBehavior);
}

/** Whether a Stripe Price's period bills as the plan's: a year and twelve months are one period. */
export function sameBilling(charged: BillingPeriod | null, plan: BillingPeriod | null): boolean {
  if (charged === null || plan === null) return charged === plan;
  const months = wholeMonths(plan);
  return months !== null ? wholeMonths(charged) === months : samePeriod(charged, plan);
}
