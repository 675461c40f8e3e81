// The one table of errors the server answers with: code, HTTP status and text. Texts the client
// also knows come from the shared table (src/shared/error-messages.ts); the rest are written here,
// once, by what happened. A module throws `serverError('sessionNotFound')`, never an inline text.
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { SERVER_ERROR_MESSAGES as SHARED, type ErrorCode } from '@shared/error-messages';
import { ApiError } from './errors';

type ErrorEntry = { status: ContentfulStatusCode; code: ErrorCode; message: string };

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
  sandboxCheckoutPaid: { status: 409, code: 'session_claimed', message: 'This checkout has already been paid.' },
  sandboxCheckoutExpired: { status: 410, code: 'not_found', message: 'This checkout session has expired. Please start again from the shop.' },
  sandboxCustomerMissing: { status: 404, code: 'no_customer', message: 'This customer does not exist.' },
  sandboxChargeMissing: { status: 404, code: 'not_found', message: 'Charge not found.' },
  sandboxSubscriptionMissing: { status: 404, code: 'not_found', message: 'Subscription not found.' },
  sandboxSubscriptionEnded: { status: 409, code: 'validation_failed', message: 'This subscription has already ended.' },
  sandboxOnlyRecurringChanges: { status: 400, code: 'validation_failed', message: 'Only recurring plans can be changed in place.' },
} as const satisfies Record<string, ErrorEntry>;

export type ServerErrorName = keyof typeof SERVER_ERRORS;

/** The table's error `name`, ready to throw; `details` as ApiError takes them (e.g. field problems). */
export function serverError(name: ServerErrorName, details?: unknown): ApiError {
  const { status, code, message } = SERVER_ERRORS[name];
  return new ApiError(status, code, message, details);
}
