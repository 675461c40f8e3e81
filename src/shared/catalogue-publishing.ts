// What the catalogue sells at Stripe (decision record 058): one Stripe Price per plan, list, amount,
// currency, period and tax behaviour, found again by its lookup key. A Price is never edited: a new
// amount is a new key, so a price change makes a new Price for new buyers while every subscription
// keeps the Price it was bought at. Pure: the publisher, the checkout and the doctor share it.
import { DEFAULT_LIST, findList, findPlan, homeEntry, listOfPage, pageOfList, rollingSaleEnd, runningSale, samePeriod, wholeMonths, type BillingPeriod, type Catalogue, type PriceList } from './catalogue';

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

/** A Price as publishing left it at Stripe: found by its lookup key, made, or a configured STRIPE_PRICE_* price taken over. */
export type PublishedPrice = { price: WantedPrice; id: string; how: 'kept' | 'created' | 'adopted' };

/** Stripe's limit on a lookup key's length. */
const MAX_LOOKUP_KEY = 200;
/** What every lookup key the catalogue gives a Price begins with. */
const LOOKUP_KEY_PREFIX = 'cw_';

/** 'cw_default_monthly_4700_usd_1month_exclusive': everything a Price is, so two Prices never share one. */
export function priceLookupKey(price: Omit<WantedPrice, 'lookupKey'>): string {
  const list = price.list === DEFAULT_LIST ? 'default' : price.list;
  const period = price.period === null ? 'once' : `${price.period.count}${price.period.unit}`;
  return `${LOOKUP_KEY_PREFIX}${list}_${price.plan}_${price.amount}_${price.currency}_${period}_${price.taxBehavior}`.slice(0, MAX_LOOKUP_KEY);
}

/** Whether a Stripe Price's lookup key is one the catalogue gave it (publishing made or took over the Price). */
export function isCatalogueLookupKey(key: string | null | undefined): boolean {
  return key?.startsWith(LOOKUP_KEY_PREFIX) ?? false;
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

const sells = (list: PriceList, plan: string) => list.entries.some((entry) => entry.plan === plan);

/** The first list (the default page's first, as homeEntry) that sells `plan` in `currency`. */
function firstListSelling(catalogue: Catalogue, plan: string, currency: string): PriceList | null {
  const ordered = [...catalogue.priceLists].sort((a, b) => Number(b.slug === DEFAULT_LIST) - Number(a.slug === DEFAULT_LIST));
  return ordered.find((list) => list.currency === currency && sells(list, plan)) ?? null;
}

/** The list a checkout of `plan` started on `originPage` sells it from: the page's list, else the first list that sells the plan. */
export function checkoutList(catalogue: Catalogue, plan: string, originPage: string | undefined): PriceList | null {
  const pageList = findList(catalogue, listOfPage(originPage ?? '/'));
  return pageList && sells(pageList, plan) ? pageList : (homeEntry(catalogue, plan)?.list ?? null);
}

/** The Price of `plan` on `list` at `now`: the list's running sale's price for the plan, else the list's. */
function priceOnList(catalogue: Catalogue, plan: string, list: PriceList, now: Date, taxBehavior: TaxBehavior): WantedPrice | null {
  const listed = list.entries.find((entry) => entry.plan === plan)?.price;
  if (listed === undefined) return null;
  const sale = runningSale(catalogue, list.slug, now, rollingSaleEnd)?.prices.find((entry) => entry.plan === plan)?.price;
  return wanted(catalogue, plan, list.slug, sale ?? listed, taxBehavior);
}

/**
 * The Price a checkout of `plan` started on `originPage` charges at `now`: the page's list (else
 * the first list that sells the plan), its running sale's price for the plan, else the list's.
 */
export function chargedPrice(catalogue: Catalogue, plan: string, originPage: string | undefined, now: Date, taxBehavior: TaxBehavior): WantedPrice | null {
  const list = checkoutList(catalogue, plan, originPage);
  return list ? priceOnList(catalogue, plan, list, now, taxBehavior) : null;
}

/** Where a subscription was bought: the list its price names (null: not named) and the currency it is billed in, which never changes. */
export type BoughtOn = { list: string | null; currency: string };

/**
 * The list a subscription of `plan` was bought on: the one its price names (a published Stripe
 * Price's metadata, the sandbox's record), else — a configured STRIPE_PRICE_* price, a purchase made
 * before lists were named — the first list (default first) selling the plan in its currency.
 */
export function boughtOnList(catalogue: Catalogue, plan: string, bought: BoughtOn): PriceList | null {
  const named = bought.list === null ? undefined : findList(catalogue, bought.list);
  return named ?? firstListSelling(catalogue, plan, bought.currency);
}

/**
 * The Price a plan change to `plan` charges at `now` a member who bought on `bought`: the plan on
 * their list (its running sale's price while one runs), else on the first list selling it in their
 * currency; null when no list sells it in that currency (a subscription keeps its currency).
 */
export function planChangePrice(catalogue: Catalogue, plan: string, bought: BoughtOn, now: Date, taxBehavior: TaxBehavior): WantedPrice | null {
  const own = bought.list === null ? undefined : findList(catalogue, bought.list);
  const list = own && own.currency === bought.currency && sells(own, plan) ? own : firstListSelling(catalogue, plan, bought.currency);
  return list ? priceOnList(catalogue, plan, list, now, taxBehavior) : null;
}

/**
 * The list whose cards a member holding `plan`, bought on `bought`, changes between (the settings'
 * plan-change card), so the cards show what a change charges (planChangePrice): their own list
 * while it charges in their currency. A purchase that names no list (a configured STRIPE_PRICE_*
 * price, an import) or none at all: a list's variant of another plan's card (the EU plans) its
 * own list, else the default page in their currency, else the first list selling their plan in it.
 */
export function planChangeList(catalogue: Catalogue, plan: string | null, bought: BoughtOn | null): PriceList | null {
  const home = findList(catalogue, DEFAULT_LIST) ?? null;
  const currency = bought?.currency ?? home?.currency ?? '';
  const own = bought?.list ? findList(catalogue, bought.list) : undefined;
  if (own && own.currency === currency) return own;
  const record = plan === null ? undefined : findPlan(catalogue, plan);
  const variantList = record?.variantOf ? firstListSelling(catalogue, record.slug, currency) : null;
  if (variantList) return variantList;
  if (home && home.currency === currency) return home;
  return (record ? firstListSelling(catalogue, record.slug, currency) : null) ?? home;
}

/** The page of the list a member's plan-change card shows (planChangeList's): its cards, priced as the landing's there, and where its checkouts start. */
export function planChangePage(catalogue: Catalogue, member: { planType: string | null; boughtOn: BoughtOn | null }): string {
  return pageOfList(planChangeList(catalogue, member.planType, member.boughtOn)?.slug ?? DEFAULT_LIST);
}

/** Whether a Stripe Price's period bills as the plan's: a year and twelve months are one period. */
export function sameBilling(charged: BillingPeriod | null, plan: BillingPeriod | null): boolean {
  if (charged === null || plan === null) return charged === plan;
  const months = wholeMonths(plan);
  return months !== null ? wholeMonths(charged) === months : samePeriod(charged, plan);
}
