// The derived subscription view the member's pages read, and which of a member's subscription
// rows it is built from (active rows first, else the latest row of any kind).
import { canCancel, grantsAccess, isCanceled } from './access';
import type { SubscriptionRow } from './access';
import type { SubscriptionViewDto } from './api-contract';
import { listOfPage } from './catalogue';
import { FALLBACK_PRICES, isRecurring, neverExpires, PLAN_CURRENCY, planTypes } from './plans';
import type { PlanPrices, PlanType } from './plans';

export type SubscriptionViewRow = SubscriptionRow & {
  tradingviewUsername: string | null;
  /** The page its checkout started on ('/', '/eu', a vendor list's '/{slug}'); absent or null: no checkout of this shop (an import, comp access). */
  originPage?: string | null;
  /** The currency its newest paid order was charged in; absent or null: none paid yet. */
  priceCurrency?: string | null;
  /**
   * Where a subscription no checkout of this shop sold was bought (an import): the list its
   * provider price names and the currency it is billed in; absent or null: not recorded.
   */
  boughtOnList?: string | null;
  boughtOnCurrency?: string | null;
};

/** amountDiscount: what a promotion code took off (a free first payment by a code is a price of 0). */
export type OrderSummary = { amount: number | null; currency: string | null; createdAt: Date; amountDiscount?: number };

/**
 * The price an order shows for `planType`: null when it holds none, or when it is the $0.00 checkout
 * of a free trial (nothing charged, nothing discounted) of a recurring plan, whose real price is
 * the plan's, whether the trial still runs, converted or was charged at once as a repeat.
 */
export function orderShowsPrice(order: OrderSummary | null, planType: PlanType): order is OrderSummary & { amount: number } {
  if (order === null || order.amount === null) return false;
  const trialCheckout = order.amount === 0 && !(order.amountDiscount && order.amountDiscount > 0) && isRecurring(planType);
  return !trialCheckout;
}

export type SubscriptionView = {
  isLoading: boolean;
  planType: PlanType | null;
  isActive: boolean;
  isCanceled: boolean;
  status: string | null;
  expiresAt: Date | null;
  purchaseDate: Date | null;
  amount: number | null;
  currency: string | null;
  tradingviewUsername: string | null;
  error: string | null;
};

export const ACTIVE_ROWS_LIMIT = 5;
export const RECENT_ROWS_LIMIT = 10;

const LISTED_ACTIVE_STATUSES: readonly string[] = ['active', 'trialing', 'canceled'];

export const EMPTY_SUBSCRIPTION_VIEW: SubscriptionView = {
  isLoading: false,
  planType: null,
  isActive: false,
  isCanceled: false,
  status: null,
  expiresAt: null,
  purchaseDate: null,
  amount: null,
  currency: null,
  tradingviewUsername: null,
  error: null,
};

/** A row the "active" query lists: is_active and status active, trialing or canceled. */
export function isListedActive(row: Pick<SubscriptionRow, 'isActive' | 'status'>): boolean {
  return row.isActive && LISTED_ACTIVE_STATUSES.includes(row.status);
}

const newestFirst = (a: Date, b: Date) => b.getTime() - a.getTime();

/** The active query: cancel_at_period_end desc, updated_at desc, created_at desc, at most 5. */
export function activeSubscriptionRows<T extends SubscriptionRow>(rows: readonly T[]): T[] {
  return rows
    .filter(isListedActive)
    .sort(
      (a, b) =>
        Number(b.cancelAtPeriodEnd) - Number(a.cancelAtPeriodEnd) ||
        newestFirst(a.updatedAt, b.updatedAt) ||
        newestFirst(a.createdAt, b.createdAt),
    )
    .slice(0, ACTIVE_ROWS_LIMIT);
}

/** The fallback query: the 10 newest rows of any kind by created_at. */
export function recentSubscriptionRows<T extends Pick<SubscriptionRow, 'createdAt'>>(
  rows: readonly T[],
): T[] {
  return [...rows].sort((a, b) => newestFirst(a.createdAt, b.createdAt)).slice(0, RECENT_ROWS_LIMIT);
}

/**
 * The row the view shows: the first of the active query, else the first of the latest-10 query.
 * Each list is re-filtered and re-ordered here, so one unsorted list may be passed as both.
 */
export function selectSubscriptionRow<T extends SubscriptionRow>(
  activeRows: readonly T[],
  allRows: readonly T[] = activeRows,
): T | null {
  return activeSubscriptionRows(activeRows)[0] ?? recentSubscriptionRows(allRows)[0] ?? null;
}

/**
 * An active recurring row without an expiry means the provider's period end was never written:
 * sync with the payment provider and query again before trusting it.
 */
export function needsForcedSync(row: SubscriptionRow | null): boolean {
  return row !== null && row.isActive && row.expiresAt === null && isRecurring(row.planType);
}

/**
 * The view of the chosen row. Amount and currency come from the order; a missing order or price,
 * or a free trial's $0.00 checkout, falls back to list pricing. isActive means the row grants access now.
 */
export function buildSubscriptionView(
  row: SubscriptionViewRow | null,
  order: OrderSummary | null,
  now: Date,
  prices: PlanPrices = FALLBACK_PRICES,
): SubscriptionView {
  if (!row) return EMPTY_SUBSCRIPTION_VIEW;
  const orderHasPrice = orderShowsPrice(order, row.planType);
  return {
    isLoading: false,
    planType: row.planType,
    isActive: grantsAccess(row, now),
    isCanceled: isCanceled(row),
    status: row.status,
    expiresAt: row.expiresAt,
    purchaseDate: order?.createdAt ?? row.createdAt,
    amount: orderHasPrice ? order.amount : (prices[row.planType] ?? null),
    currency: (orderHasPrice ? order.currency?.toLowerCase() : null) ?? PLAN_CURRENCY,
    tradingviewUsername: row.tradingviewUsername,
    error: null,
  };
}

/** The plan shown on the premium-required screen: newest row by created_at, the one-time plan if none. */
export function latestPlanForPremiumRequired(
  rows: readonly Pick<SubscriptionRow, 'planType' | 'createdAt'>[],
): PlanType {
  return recentSubscriptionRows(rows)[0]?.planType ?? planTypes().find(neverExpires) ?? planTypes()[0] ?? '';
}

/**
 * Where the shown subscription was bought: its checkout's page, else (an import: no checkout here)
 * the list its provider price named when it was recorded; the currency of its newest paid order,
 * else the one recorded with it (an import before its first renewal here), else the view's.
 */
function boughtOnOf(row: SubscriptionViewRow, viewCurrency: string | null): { list: string | null; currency: string } {
  const list = row.originPage ? listOfPage(row.originPage) : (row.boughtOnList ?? null);
  return { list, currency: (row.priceCurrency ?? row.boughtOnCurrency)?.toLowerCase() ?? viewCurrency ?? PLAN_CURRENCY };
}

/** Everything GET /api/subscription returns, from the user's rows and the chosen row's order. */
export function buildSubscriptionDto(input: {
  rows: readonly SubscriptionViewRow[];
  order: OrderSummary | null;
  now: Date;
  prices?: PlanPrices;
}): SubscriptionViewDto {
  const row = selectSubscriptionRow(input.rows);
  const view = buildSubscriptionView(row, input.order, input.now, input.prices);
  return {
    planType: view.planType,
    isActive: view.isActive,
    isCanceled: view.isCanceled,
    status: view.status,
    expiresAt: view.expiresAt?.toISOString() ?? null,
    purchaseDate: view.purchaseDate?.toISOString() ?? null,
    amount: view.amount,
    currency: view.currency,
    tradingviewUsername: view.tradingviewUsername,
    canCancel: row ? canCancel(row) : false,
    latestPlanType: input.rows.length > 0 ? latestPlanForPremiumRequired(input.rows) : null,
    boughtOn: row ? boughtOnOf(row, view.currency) : null,
  };
}

export function subscriptionViewFromDto(dto: SubscriptionViewDto): SubscriptionView {
  return {
    isLoading: false,
    planType: dto.planType,
    isActive: dto.isActive,
    isCanceled: dto.isCanceled,
    status: dto.status,
    expiresAt: dto.expiresAt === null ? null : new Date(dto.expiresAt),
    purchaseDate: dto.purchaseDate === null ? null : new Date(dto.purchaseDate),
    amount: dto.amount,
    currency: dto.currency,
    tradingviewUsername: dto.tradingviewUsername,
    error: null,
  };
}

/** 'November 26, 2025'; timeZone defaults to the viewer's own. */
export function formatDisplayDate(date: Date, timeZone?: string): string {
  return date.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    ...(timeZone ? { timeZone } : {}),
  });
}

export type SubscriptionLabel = {
  label: 'Pending Cancellation' | 'Active';
  accessUntil?: string;
  dot: 'grey' | 'green';
};

/** Status label and dot of the settings Subscription card. */
export function subscriptionLabel(
  view: Pick<SubscriptionView, 'isActive' | 'isCanceled' | 'expiresAt'>,
  timeZone?: string,
): SubscriptionLabel {
  if (view.isCanceled) {
    return view.expiresAt
      ? {
          label: 'Pending Cancellation',
          accessUntil: `Access until ${formatDisplayDate(view.expiresAt, timeZone)}`,
          dot: 'grey',
        }
      : { label: 'Pending Cancellation', dot: 'grey' };
  }
  if (view.isActive) return { label: 'Active', dot: 'green' };
  return { label: 'Pending Cancellation', dot: 'grey' };
}

export type SubscriptionPeriodRow = {
  label: 'Renews On' | 'Ends On' | 'Ended On' | 'Renewal';
  value: string;
};

export const LIFETIME_RENEWAL_TEXT = 'None – lifetime access';

/**
 * The date row of the settings Subscription card under the plan: when a running plan renews,
 * when a canceled one ends (access lasts until then), or when a lapsed one ended. Null
 * when there is no plan, or a recurring plan has no known period end.
 */
export function subscriptionPeriodRow(
  view: Pick<SubscriptionView, 'planType' | 'isActive' | 'isCanceled' | 'expiresAt'>,
  timeZone?: string,
): SubscriptionPeriodRow | null {
  if (view.planType === null) return null;
  if (neverExpires(view.planType)) return { label: 'Renewal', value: LIFETIME_RENEWAL_TEXT };
  if (view.expiresAt === null) return null;
  const date = formatDisplayDate(view.expiresAt, timeZone);
  if (!view.isActive) return { label: 'Ended On', value: date };
  return { label: view.isCanceled ? 'Ends On' : 'Renews On', value: date };
}
