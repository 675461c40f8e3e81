// A vendor's price lists as pages of their own (decision record 054): a list added in the console
// is served at /{slug} with its own currency and header, showing only the plans it sells. The rules
// a list's slug and currency pass, the edit that saves a list, the page a path shows, and a price
// written for buyers in the list's currency.
import { DEFAULT_LIST, findList, findPlan, priceProblem, rollingSaleEnd, runningSale, type Catalogue, type Edit, type PriceList, type PriceListEntry, type Sale } from './catalogue';
import { APP_PAGE_AREAS, APP_PAGE_PATHS } from './page-paths';
import { formatCardPrice, PLAN_CURRENCY } from './plans';

/**
 * First path segments the shop answers itself: the app's pages and areas, the server's routes and
 * the client build's files. A list's page there would never be reached (or would hide the route).
 */
export const RESERVED_LIST_SLUGS: readonly string[] = [
  ...new Set([
    ...[...APP_PAGE_PATHS, ...APP_PAGE_AREAS].map((path) => path.slice(1)).filter((segment) => segment !== ''),
    'api',
    'assets',
    'ssr',
    'healthz',
    'readyz',
    'metrics',
    'index',
    'landing',
    'legal',
    'robots',
    'sitemap',
    'favicon',
    // the console's API names the default list so (catalogue-contract.ts)
    'default',
  ]),
];

export const LIST_SLUG_MIN = 2;
export const LIST_SLUG_MAX = 40;
export const LIST_HEADER_MAX = 200;
const LIST_SLUG = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** Why a new list may not take `slug` as its page's address, or null. */
export function listSlugProblem(slug: string, existing: readonly string[]): string | null {
  if (slug.length < LIST_SLUG_MIN || slug.length > LIST_SLUG_MAX) return `A price list's address is ${LIST_SLUG_MIN} to ${LIST_SLUG_MAX} characters long; "${slug}" has ${slug.length}.`;
  if (slug !== slug.toLowerCase()) return `A price list's address is lower-case: use "${slug.toLowerCase()}".`;
  if (!LIST_SLUG.test(slug)) return `"${slug}" is not a usable address: use lower-case letters, digits and hyphens (not first or last).`;
  if (existing.includes(slug)) return `A price list at /${slug} exists already.`;
  if (RESERVED_LIST_SLUGS.includes(slug)) return `/${slug} is a page of the shop already: choose another address.`;
  return null;
}

/** ISO 4217 codes the runtime formats (every currency a card can show); null: it cannot tell. */
function knownCurrencies(): ReadonlySet<string> | null {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  return supported ? new Set(supported('currency').map((code) => code.toLowerCase())) : null;
}

/** Why `currency` cannot be a list's currency, or null. Codes are compared lower-case ('eur'). */
export function currencyProblem(currency: string): string | null {
  if (!/^[a-z]{3}$/i.test(currency)) return `"${currency}" is not a currency: use its three-letter ISO code, e.g. USD or EUR.`;
  const known = knownCurrencies();
  if (known && !known.has(currency.toLowerCase())) return `${currency.toUpperCase()} is not a currency we know: use its three-letter ISO code, e.g. USD or EUR.`;
  return null;
}

export type PriceListInput = {
  slug: string;
  currency: string;
  /** The bar above the navigation on the list's page; empty or null: none (the EU list: its offer note). */
  header: string | null;
  /** The plans it sells, at their price in the list's minor units. */
  entries: readonly PriceListEntry[];
};

/** Adds a list (`isNew`) or changes one; its plans, prices, currency and header as given. */
export function savePriceList(catalogue: Catalogue, input: PriceListInput, isNew: boolean): Edit {
  const existing = findList(catalogue, input.slug);
  const currency = input.currency.trim().toLowerCase();
  const header = input.header?.trim() ? input.header.trim() : null;
  const problem =
    (isNew ? listSlugProblem(input.slug, catalogue.priceLists.map((list) => list.slug)) : existing ? null : `Unknown price list "${input.slug}".`) ??
    currencyProblem(currency) ??
    (input.slug === DEFAULT_LIST && currency !== PLAN_CURRENCY ? `The default page charges in the shop's currency, ${PLAN_CURRENCY.toUpperCase()}.` : null) ??
    (header !== null && header.length > LIST_HEADER_MAX ? `The header is at most ${LIST_HEADER_MAX} characters.` : null) ??
    entriesProblem(catalogue, input.entries, currency);
  if (problem) return { problem };
  const list: PriceList = {
    slug: input.slug,
    currency,
    header,
    countdown: existing?.countdown ?? false,
    entries: input.entries.map((entry) => ({ plan: entry.plan, price: entry.price })),
  };
  return {
    catalogue: {
      ...catalogue,
      priceLists: existing ? catalogue.priceLists.map((candidate) => (candidate.slug === list.slug ? list : candidate)) : [...catalogue.priceLists, list],
    },
  };
}

function entriesProblem(catalogue: Catalogue, entries: readonly PriceListEntry[], currency: string): string | null {
  if (entries.length === 0) return 'A price list sells at least one plan.';
  const seen = new Set<string>();
  for (const entry of entries) {
    const plan = findPlan(catalogue, entry.plan);
    if (!plan) return `Unknown plan "${entry.plan}".`;
    if (seen.has(entry.plan)) return `${plan.name} is on the list twice.`;
    seen.add(entry.plan);
    const problem = priceProblem(entry.price);
    if (problem) return `${plan.name} (${formatListPrice(Math.max(0, Math.trunc(Number(entry.price) || 0)), currency)}): ${problem}`;
  }
  return null;
}

/** The vendor's own list a path shows ('/black-friday' → that list), or null: the default page, /eu's route, or no list. */
export function ownListOfPath(catalogue: Catalogue, pathname: string): PriceList | null {
  const slug = pathname.replace(/^\/+|\/+$/g, '');
  if (slug === '' || slug.includes('/') || RESERVED_LIST_SLUGS.includes(slug)) return null;
  return findList(catalogue, slug) ?? null;
}

/** Whether a path is a price list's page the app serves (a list the vendor added). */
export function isPriceListPage(catalogue: Catalogue | undefined, pathname: string): boolean {
  return catalogue !== undefined && ownListOfPath(catalogue, pathname) !== null;
}

/**
 * A price as the cards write it in a list's currency: whole amounts without decimals ('$36', '€29'),
 * others with them. US dollars are written out without Intl (formatCardPrice: the landing page's
 * first paint), every other currency is Intl's.
 */
export function formatListPrice(minor: number, currency: string): string {
  if (currency.toLowerCase() === PLAN_CURRENCY) return formatCardPrice(minor);
  const code = currency.toUpperCase();
  const digits = new Intl.NumberFormat('en-US', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  const amount = minor / 10 ** digits;
  const whole = Number.isInteger(amount);
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: code, minimumFractionDigits: whole ? 0 : digits, maximumFractionDigits: whole ? 0 : digits }).format(amount);
}

/** The sale running on a vendor's own list at `now` (a sale with no end rolls, as the default page's). */
export function ownListSale(catalogue: Catalogue, list: PriceList, now: Date): Sale | null {
  return runningSale(catalogue, list.slug, now, rollingSaleEnd);
}

/**
 * A plan's price on the vendor's own list `page` shows, at `now`: the running sale's price for it
 * (with the sale), else the list's; null when the page is no vendor list or does not sell the plan.
 */
export function ownListPrice(catalogue: Catalogue, page: string, plan: string, now: Date): { amount: number; listed: number; currency: string; sale: Sale | null } | null {
  const list = ownListOfPath(catalogue, page);
  const entry = list?.entries.find((candidate) => candidate.plan === plan);
  if (!list || !entry) return null;
  const sale = ownListSale(catalogue, list, now);
  const salePrice = sale?.prices.find((candidate) => candidate.plan === plan)?.price;
  return salePrice === undefined ? { amount: entry.price, listed: entry.price, currency: list.currency, sale: null } : { amount: salePrice, listed: entry.price, currency: list.currency, sale };
}

/** What a checkout started on `originPage` at `now` charges for `plan` when that page's list is the vendor's own; null: the campaign's price. */
export function ownListCharge(catalogue: Catalogue, plan: string, originPage: string | undefined, now: Date): { amount: number; currency: string } | null {
  if (originPage === undefined) return null;
  const own = ownListPrice(catalogue, originPage, plan, now);
  return own ? { amount: own.amount, currency: own.currency } : null;
}

function fractionDigits(currency: string): number {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** The marks that name a currency in a typed price: its code, its symbol ('CA$') and narrow symbol ('$'). */
function currencyMarks(currency: string): string[] {
  const code = currency.toUpperCase();
  const symbol = (display: 'symbol' | 'narrowSymbol') =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: code, currencyDisplay: display }).formatToParts(1).find((part) => part.type === 'currency')?.value ?? code;
  return [...new Set([code, symbol('symbol'), symbol('narrowSymbol')])];
}

/**
 * A price as the operator types it ('$29.00', '29', '1,299.50', 'EUR 29', '29 €') in minor units
 * of the list's `currency`, or the reason it is not one: another currency's mark, too many
 * decimals, 0, or over the highest price.
 */
export function parsePriceText(text: string, currency: string): number | string {
  const typed = text.trim();
  if (typed === '') return 'Enter a price, e.g. 29 or 29.00.';
  const code = currency.toUpperCase();
  const match = /^([^\d\s.,-]*)\s*(-?[\d.,]+)\s*([^\d\s.,-]*)$/.exec(typed);
  if (!match) return `"${typed}" is not a price: write it as 29 or 29.00.`;
  const mark = (match[1] || match[3] || '').trim();
  if ((match[1] ?? '') !== '' && (match[3] ?? '') !== '') return `"${typed}" is not a price: write it as 29 or 29.00.`;
  if (mark !== '' && !currencyMarks(currency).some((own) => own.toLowerCase() === mark.toLowerCase())) {
    return `"${typed}" is not in ${code}: this price list charges in ${code} (${currencyMarks(currency).join(', ')}).`;
  }
  const number = match[2]!;
  if (number.startsWith('-')) return 'A price must be more than 0.';
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/.test(number)) return `"${typed}" is not a price: write it as 29 or 29.00.`;
  const digits = fractionDigits(currency);
  const decimals = number.includes('.') ? number.split('.')[1]!.length : 0;
  if (decimals > digits) return digits === 0 ? `${code} has no decimals: write ${number.split('.')[0]}.` : `${code} has ${digits} decimals at most: "${typed}" has ${decimals}.`;
  const [whole, fraction = ''] = number.replace(/,/g, '').split('.');
  const minor = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  return priceProblem(minor) ?? minor;
}

/** Minor units as the console's price fields show them for editing ('29.00', '1299.50', '2900' for yen). */
export function priceInputText(minor: number, currency: string): string {
  const digits = fractionDigits(currency);
  return (minor / 10 ** digits).toFixed(digits);
}
