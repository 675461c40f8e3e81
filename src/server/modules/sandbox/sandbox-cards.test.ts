import { describe, expect, it } from 'vitest';
import { cardOutcome, DECLINE_MESSAGES } from './sandbox-cards';

describe('sandbox test cards behave as at Stripe', () => {
  it.each([
    { card: '4242 4242 4242 4242', kind: 'approved', laterChargesFail: false },
    { card: '5555555555554444', kind: 'approved', laterChargesFail: false },
    { card: '4000 0000 0000 0341', kind: 'approved', laterChargesFail: true },
  ])('$card is approved', ({ card, kind, laterChargesFail }) => {
    expect(cardOutcome(card)).toMatchObject({ kind, laterChargesFail, last4: card.replace(/\s/g, '').slice(-4) });
  });

  it.each([
    { card: '4000 0000 0000 0002', code: 'card_declined', message: 'Your card was declined.' },
    { card: '4000 0000 0000 9995', code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
    { card: '4000000000000069', code: 'expired_card', message: 'Your card has expired.' },
    { card: '4000000000000127', code: 'incorrect_cvc', message: "Your card's security code is incorrect." },
    { card: '4000 0027 6000 3184', code: 'authentication_required', message: DECLINE_MESSAGES.authentication },
    { card: '4111 1111 1111 1111', code: 'card_not_test', message: DECLINE_MESSAGES.notTestCard },
  ])('$card is declined ($code)', ({ card, code, message }) => {
    expect(cardOutcome(card)).toMatchObject({ kind: 'declined', code, message });
  });
});
