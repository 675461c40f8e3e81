// How the sandbox provider answers each card number: Stripe's published test cards behave as at
// Stripe (https://docs.stripe.com/testing); any other number is refused, as Stripe's test mode
// refuses real cards, so a demo can never be mistaken for a real charge.
import { createHash } from 'node:crypto';
import { digitsOnly } from '@shared/card-input';

export type CardOutcome =
  | { kind: 'approved'; brand: string; last4: string; laterChargesFail: boolean }
  | { kind: 'declined'; code: string; message: string; field?: 'cardNumber' | 'expiry' | 'cvc' };

export const DECLINE_MESSAGES = {
  generic: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  expired: 'Your card has expired.',
  incorrectCvc: "Your card's security code is incorrect.",
  processing: 'An error occurred while processing your card. Try again in a little bit.',
  authentication: 'This card requires 3-D Secure authentication, which the sandbox does not simulate. Use 4242 4242 4242 4242.',
  notTestCard: 'Your card was declined. The sandbox accepts only Stripe test cards, such as 4242 4242 4242 4242.',
} as const;

type Approved = { brand: string; laterChargesFail?: boolean };
type Declined = { code: string; message: string; field?: 'cardNumber' | 'expiry' | 'cvc' };

const APPROVED: Record<string, Approved> = {
  '4242424242424242': { brand: 'Visa' },
  '4000056655665556': { brand: 'Visa (debit)' },
  '5555555555554444': { brand: 'Mastercard' },
  '2223003122003222': { brand: 'Mastercard' },
  '5200828282828210': { brand: 'Mastercard (debit)' },
  '378282246310005': { brand: 'American Express' },
  '6011111111111117': { brand: 'Discover' },
  // Attaching succeeds, every later charge fails: renewals go past_due.
  '4000000000000341': { brand: 'Visa', laterChargesFail: true },
};

const DECLINED: Record<string, Declined> = {
  '4000000000000002': { code: 'card_declined', message: DECLINE_MESSAGES.generic },
  '4000000000009995': { code: 'insufficient_funds', message: DECLINE_MESSAGES.insufficientFunds },
  '4000000000009987': { code: 'lost_card', message: DECLINE_MESSAGES.generic },
  '4000000000009979': { code: 'stolen_card', message: DECLINE_MESSAGES.generic },
  '4000000000000069': { code: 'expired_card', message: DECLINE_MESSAGES.expired, field: 'expiry' },
  '4000000000000127': { code: 'incorrect_cvc', message: DECLINE_MESSAGES.incorrectCvc, field: 'cvc' },
  '4000000000000119': { code: 'processing_error', message: DECLINE_MESSAGES.processing },
  '4000002760003184': { code: 'authentication_required', message: DECLINE_MESSAGES.authentication },
  '4000002500003155': { code: 'authentication_required', message: DECLINE_MESSAGES.authentication },
};

export function cardOutcome(cardNumber: string): CardOutcome {
  const number = digitsOnly(cardNumber);
  const approved = APPROVED[number];
  if (approved) return { kind: 'approved', brand: approved.brand, last4: number.slice(-4), laterChargesFail: approved.laterChargesFail ?? false };
  const declined = DECLINED[number];
  if (declined) return { kind: 'declined', ...declined };
  return { kind: 'declined', code: 'card_not_test', message: DECLINE_MESSAGES.notTestCard, field: 'cardNumber' };
}

/** Stripe's card fingerprint stands for the card number, whoever holds it: here a hash of the digits. */
export function cardFingerprint(cardNumber: string): string {
  return createHash('sha256').update(`sandbox-card:${digitsOnly(cardNumber)}`).digest('hex').slice(0, 16);
}
