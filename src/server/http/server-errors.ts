// The one table of errors the server answers with: code, HTTP status and text. Texts the client
// also knows come from the shared table (src/shared/error-messages.ts); the rest are written here,
// once, by what happened. A module throws `serverError('sessionNotFound')`, never an inline text.
// A text built from a value has a builder of that one value: `serverError('noPriceForPlan', plan)`.
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { SERVER_ERROR_MESSAGES as SHARED, type ErrorCode } from '@shared/error-messages';
import { planDisplayName, type PlanType } from '@shared/plans';
import { usernameChangeTooSoonMessage } from '@shared/tradingview-usernames';
import { OPERATOR_COMP_REFUSED } from '@shared/member-actions';
import { ApiError } from './errors';
import { checkoutRefusalText, type CheckoutRefusal } from './checkout-refusal';

/** Codes only the operator console reads; the client's own codes are the shared ErrorCode. */
type ConsoleErrorCode = 'still_paid' | 'not_paying' | 'invalid_input';

/** A fixed text, or the text built from one value (several values come as one object). */
type ErrorMessage = string | ((value: never) => string);

type ErrorEntry = { status: ContentfulStatusCode; code: ErrorCode | ConsoleErrorCode; message: ErrorMessage };

export const SERVER_ERRORS = {
  lifetimeOwned: { status: 409, code: 'lifetime_owned', message: SHARED.lifetime_owned },
  subscriptionExists: { status: 409, code: 'subscription_exists', message: SHARED.subscription_exists },
  noCustomer: { status: 404, code: 'no_customer', message: SHARED.no_customer },
  /** A plan change on a subscription with no item to change (Stripe). */
  noSubscriptionItem: { status: 409, code: 'no_customer', message: SHARED.no_customer },
  sessionNotFound: { status: 404, code: 'session_not_found', message: SHARED.session_not_found },
  sessionNotPaid: { status: 409, code: 'session_not_paid', message: SHARED.session_not_paid },
  sessionClaimed: { status: 409, code: 'session_claimed', message: SHARED.session_claimed },
  emailMismatch: { status: 403, code: 'email_mismatch', message: SHARED.email_mismatch },
  duplicatePayment: { status: 409, code: 'duplicate_payment', message: SHARED.duplicate_payment },
  planChangeInProgress: { status: 409, code: 'plan_change_in_progress', message: SHARED.plan_change_in_progress },
  cardDeclined: { status: 402, code: 'payment_failed', message: SHARED.payment_failed },
  providerUnavailable: { status: 503, code: 'provider_unavailable', message: SHARED.provider_unavailable },
  lifetimeNotChangeable: { status: 400, code: 'validation_failed', message: 'Lifetime is a one-time purchase: buy it through checkout.' },
  cleanupOfOthersPurchase: { status: 403, code: 'forbidden', message: 'You can only clean up purchases made with your own email address.' },
  noLifetimePurchaseYet: { status: 409, code: 'session_not_paid', message: 'No active Lifetime purchase was found for this account yet.' },
  accountExistsForPurchase: { status: 409, code: 'user_exists', message: 'An account with this email already exists. Please log in to activate your purchase.' },
  purchaseWithoutEmail: { status: 409, code: 'session_not_paid', message: 'This payment has no email address yet. Please try again in a moment.' },
  noCheckoutUrl: { status: 502, code: 'provider_unavailable', message: 'The payment provider returned no checkout URL.' },
  noPreview: { status: 502, code: 'provider_unavailable', message: 'The payment provider returned no preview.' },
  noSubscriptionReturned: { status: 502, code: 'provider_unavailable', message: 'The payment provider returned no subscription.' },
  sandboxCheckoutMissing: { status: 404, code: 'session_not_found', message: 'This checkout session does not exist.' },
  /** An invoice id that is none of the member's invoices (unknown, or another member's). */
  invoiceNotFound: { status: 404, code: 'not_found', message: 'No invoice of yours has this id.' },
  sandboxInvoiceMissing: { status: 404, code: 'not_found', message: 'This invoice does not exist.' },
  sandboxCheckoutPaid: { status: 409, code: 'session_claimed', message: 'This checkout has already been paid.' },
  sandboxCheckoutExpired: { status: 410, code: 'not_found', message: 'This checkout session has expired. Please start again from the shop.' },
  sandboxCustomerMissing: { status: 404, code: 'no_customer', message: 'This customer does not exist.' },
  sandboxChargeMissing: { status: 404, code: 'not_found', message: 'Charge not found.' },
  sandboxSubscriptionMissing: { status: 404, code: 'not_found', message: 'Subscription not found.' },
  sandboxSubscriptionEnded: { status: 409, code: 'validation_failed', message: 'This subscription has already ended.' },
  sandboxOnlyRecurringChanges: { status: 400, code: 'validation_failed', message: 'Only recurring plans can be changed in place.' },
  sandboxUnknownAction: { status: 404, code: 'not_found', message: (action: string) => `Unknown action ${action}.` },
  sandboxNoPaymentToRefund: { status: 404, code: 'not_found', message: (paymentId: string) => `No payment ${paymentId} to refund.` },
  /** The first field problem's own text is the answer; the problems go in `details`. */
  sandboxCardDetailsInvalid: { status: 400, code: 'validation_failed', message: (firstProblem: string | undefined) => firstProblem ?? 'Please check your details.' },
  /** A sandbox test card's decline: its own text (sandbox-cards), the field it concerns in `details`. */
  sandboxCardDeclined: { status: 402, code: 'payment_failed', message: (declineMessage: string) => declineMessage },

  /** An anonymous checkout over its limit (checkout-limit.ts): who was counted, and when to come back. */
  checkoutLimited: { status: 429, code: 'rate_limited', message: (refusal: CheckoutRefusal) => checkoutRefusalText(refusal) },

  /** A plan change (Stripe or the sandbox) to a plan no price list sells in the currency the member's subscription is billed in (it never changes). */
  planNotSoldInCurrency: {
    status: 400,
    code: 'validation_failed',
    message: ({ plan, currency }: { plan: PlanType; currency: string }) => `${planDisplayName(plan)} is not sold in ${currency.toUpperCase()}, the currency your plan is billed in.`,
  },

  // Stripe
  noPriceForPlan: { status: 503, code: 'provider_unavailable', message: (plan: PlanType) => `No Stripe price is configured for the ${plan} plan.` },
  stripeCardDeclined: { status: 402, code: 'payment_failed', message: (stripeMessage: string) => stripeMessage || SHARED.payment_failed },
  /** Publishing the catalogue (an operator's action): Stripe's own reason, whatever the error. */
  stripePublishFailed: { status: 502, code: 'provider_unavailable', message: (reason: string) => `Stripe refused to publish the prices: ${reason}` },
  providerRefused: { status: 502, code: 'provider_unavailable', message: (reason: string) => `The payment provider refused the request: ${reason}` },
  /** `details` carry the `url` of the provider's page that confirms the payment. */
  paymentActionRequired: { status: 402, code: 'payment_action_required', message: SHARED.payment_action_required },
  noPaymentToRefund: { status: 502, code: 'provider_unavailable', message: (paymentId: string) => `No payment to refund for ${paymentId}.` },

  // Requests, sessions and limits
  /** A body the schema refused: its first problem's own text (the page shows it as is). */
  invalidBody: { status: 400, code: 'validation_failed', message: (firstProblem: string | undefined) => firstProblem ?? SHARED.validation_failed },
  weakPassword: { status: 400, code: 'weak_password', message: SHARED.weak_password },
  purchaseUnproven: { status: 403, code: 'purchase_unproven', message: SHARED.purchase_unproven },
  rateLimited: { status: 429, code: 'rate_limited', message: SHARED.rate_limited },
  signInRequired: { status: 401, code: 'unauthorized', message: 'Please sign in to continue.' },
  accessRequired: { status: 403, code: 'forbidden', message: 'An active subscription is required to view this content.' },
  operatorSignInRequired: { status: 401, code: 'unauthorized', message: 'Please sign in as an operator to continue.' },
  operatorOnly: { status: 403, code: 'forbidden', message: 'Only operators may open this page.' },
  invitationUnusable: { status: 404, code: 'not_found', message: 'This invitation link is invalid, expired or already used. Ask an operator for a new one.' },

  // Content
  /** `what` reads as the sentence's subject: 'The guide', 'The image'. */
  contentNotFound: { status: 404, code: 'not_found', message: (what: string) => `${what} could not be found.` },
  // Content studio: what the operator must change, in their words
  contentSlugTaken: { status: 409, code: 'validation_failed', message: (what: string) => `${what} exists already: choose another slug.` },
  contentSlugFixed: { status: 400, code: 'invalid_input', message: 'The slug of a piece cannot change once it is created: make a new piece instead.' },
  contentWouldBreak: { status: 422, code: 'validation_failed', message: (problem: string) => `Not published: ${problem}` },
  contentPreviewBroken: { status: 422, code: 'validation_failed', message: (problem: string) => problem },
  contentUploadRefused: { status: 400, code: 'invalid_input', message: (reason: string) => reason },
  contentImageTaken: { status: 409, code: 'validation_failed', message: (name: string) => `An image named ${name} exists already: rename the file, or use the one uploaded.` },
  contentParentMissing: { status: 400, code: 'invalid_input', message: (slug: string) => `No product guide ${slug}: a feature belongs to a product guide.` },

  // TradingView
  tvUsernameNotFound: { status: 422, code: 'tv_username_not_found', message: SHARED.tv_username_not_found },
  /** The upstream failed (502); with our vendor session expired it is our configuration (503). */
  tvUnverifiable: { status: 502, code: 'tv_unverifiable', message: SHARED.tv_unverifiable },
  tvUnverifiableSessionExpired: { status: 503, code: 'tv_unverifiable', message: SHARED.tv_unverifiable },
  tvActivationNeedsAccess: { status: 403, code: 'forbidden', message: 'You need an active subscription to activate TradingView access.' },
  /** Another member with access holds the name (decision 048): the operator's transfer moves it. */
  tvUsernameTaken: { status: 409, code: 'tv_username_taken', message: SHARED.tv_username_taken },
  tvUsernameChangeTooSoon: {
    status: 429,
    code: 'tv_username_change_too_soon',
    message: ({ days, nextChangeAt }: { days: number; nextChangeAt: Date }) => usernameChangeTooSoonMessage(days, nextChangeAt),
  },

  // Discord
  discordNeedsAccess: { status: 403, code: 'discord_needs_access', message: SHARED.discord_needs_access },
  discordAlreadyLinked: { status: 409, code: 'discord_already_linked', message: SHARED.discord_already_linked },
  discordUnavailable: { status: 502, code: 'discord_unavailable', message: SHARED.discord_unavailable },

  // Promotion codes: the reason in words (src/shared/promotions.ts), as buyers and operators read it
  promotionRefused: { status: 400, code: 'promotion_code_invalid', message: (reason: string) => reason },
  promotionNotFound: { status: 404, code: 'promotion_code_invalid', message: (reason: string) => reason },
  promotionTermsInvalid: { status: 400, code: 'validation_failed', message: (firstProblem: string | undefined) => firstProblem ?? SHARED.validation_failed },
  /** The mail switches and win-back settings (decision 056): every problem in words. */
  mailSettingsInvalid: { status: 400, code: 'validation_failed', message: (problems: string) => problems },
  promotionCodeTaken: { status: 409, code: 'validation_failed', message: (code: string) => `The code ${code} already exists.` },

  // Affiliates: the reason in words (src/shared/affiliates.ts), as affiliates and operators read it
  affiliateNotFound: { status: 404, code: 'not_found', message: (reason: string) => reason },
  affiliateRefused: { status: 400, code: 'validation_failed', message: (reason: string) => reason },
  affiliateJoinRefused: { status: 403, code: 'forbidden', message: (reason: string) => reason },
  affiliateConflict: { status: 409, code: 'validation_failed', message: (reason: string) => reason },

  // Operator console
  noMember: { status: 404, code: 'not_found', message: 'No member with this id.' },
  accountBanned: { status: 403, code: 'account_banned', message: SHARED.account_banned },
  // Support actions: bad input is a 400 that names what to do instead
  freeDaysLifetime: { status: 400, code: 'invalid_input', message: 'Lifetime access never ends: free days do not apply to it.' },
  pauseLifetime: { status: 400, code: 'invalid_input', message: 'Lifetime is paid once: there is no collection to pause or resume.' },
  noRenewingPlan: { status: 400, code: 'invalid_input', message: (action: string) => `This member has no renewing subscription to ${action}. Give complimentary access instead.` },
  freeDaysBeyondHorizon: { status: 400, code: 'invalid_input', message: (left: number) => `Paid time can run at most two years ahead: this plan can take at most ${left} more free day${left === 1 ? '' : 's'}.` },
  /** The cancellation flow (decision 052): nothing to cancel now, with why. */
  cancellationBlocked: { status: 409, code: 'validation_failed', message: (why: string) => why },
  /** An offer taken that is not (or no longer) the member's: used already, paused already, another reason's. */
  offerNotAvailable: { status: 409, code: 'validation_failed', message: (why: string) => why },
  alreadyPaused: { status: 400, code: 'invalid_input', message: 'Collection is already paused for this plan: resume it first.' },
  notPaused: { status: 400, code: 'invalid_input', message: 'Collection is not paused for this plan.' },
  alreadyBanned: { status: 400, code: 'invalid_input', message: 'This member is already banned.' },
  noPaymentToRefundOnBan: { status: 400, code: 'invalid_input', message: 'This member has no paid payment to refund: ban without a refund.' },
  compForOperator: { status: 400, code: 'invalid_input', message: OPERATOR_COMP_REFUSED },
  compEndsInPast: { status: 400, code: 'invalid_input', message: 'Choose a day from today on.' },
  noOutageToSimulate: { status: 404, code: 'not_found', message: 'TradingView is the real service here: there is no outage to simulate.' },
  memberMailsAreLive: { status: 404, code: 'not_found', message: 'Mails or payments are live here: running the member mails ahead would mail real members early.' },
  reportRangeReversed: { status: 400, code: 'validation_failed', message: 'from must not be after to.' },
  orderNotFound: { status: 404, code: 'not_found', message: 'No order with this id.' },
  orderNotRefundable: { status: 409, code: 'invalid_input', message: (reason: string) => reason },
  noReplayableEvent: { status: 404, code: 'not_found', message: 'No failed event with this id can be replayed.' },
  replayFailedAgain: { status: 502, code: 'provider_unavailable', message: (error: unknown) => `The event failed again: ${error instanceof Error ? error.message : String(error)}` },
  tradingViewDidNotAnswer: { status: 502, code: 'provider_unavailable', message: (reason: string) => `TradingView did not answer: ${reason}` },
  usernameStillPaid: { status: 409, code: 'still_paid', message: (username: string) => `${username} belongs to a member with paid access; nothing was removed.` },
  memberNotPaying: { status: 409, code: 'not_paying', message: 'This member has no paid access with a TradingView username.' },
  unknownScript: { status: 404, code: 'not_found', message: (id: string) => `No script ${id} in the catalog: check the id, or run a sync first.` },
  memberWithoutGrant: { status: 409, code: 'not_paying', message: 'This member has no TradingView grant to send.' },
} as const satisfies Record<string, ErrorEntry>;

export type ServerErrorName = keyof typeof SERVER_ERRORS;

type MessageOf<N extends ServerErrorName> = (typeof SERVER_ERRORS)[N]['message'];

/** What follows the name: a built text's value first, then `details` as ApiError takes them. */
export type ServerErrorArgs<N extends ServerErrorName> =
  MessageOf<N> extends (value: infer V) => string ? [value: V, details?: unknown] : [details?: unknown];

/** The table's error `name`, ready to throw; `details` as ApiError takes them (e.g. field problems). */
export function serverError<N extends ServerErrorName>(name: N, ...args: ServerErrorArgs<N>): ApiError {
  const { status, code, message }: ErrorEntry = SERVER_ERRORS[name];
  if (typeof message === 'string') return new ApiError(status, code, message, args[0]);
  return new ApiError(status, code, (message as (value: unknown) => string)(args[0]), args[1]);
}
