// Card fields of the sandbox hosted checkout: formatting while typing and the checks a hosted
// payment page makes before it talks to the card network. Used by the page (inline errors) and by
// the sandbox provider (authoritative), so both say the same thing. Texts follow Stripe Checkout's.

export const CARD_MESSAGES = {
  numberRequired: 'Your card number is incomplete.',
  numberInvalid: 'Your card number is invalid.',
  expiryIncomplete: "Your card's expiration date is incomplete.",
  expiryPast: "Your card's expiration year is in the past.",
  expiryMonthInvalid: "Your card's expiration month is invalid.",
  cvcIncomplete: "Your card's security code is incomplete.",
  nameRequired: 'Name on card is required.',
} as const;

export type CardInput = { cardNumber: string; expiry: string; cvc: string; name: string };
export type CardField = keyof CardInput;
export type CardErrors = Partial<Record<CardField, string>>;

export const digitsOnly = (value: string) => value.replace(/\D/g, '');

/** Groups digits by four as the buyer types: '4242424242424242' → '4242 4242 4242 4242'. */
export function formatCardNumber(value: string): string {
  return digitsOnly(value)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** 'MM / YY' as the buyer types; a leading 2–9 can only be a month ('4' → '04'). */
export function formatExpiry(value: string): string {
  let digits = digitsOnly(value).slice(0, 4);
  if (digits.length === 1 && digits > '1') digits = `0${digits}`;
  return digits.length > 2 ? `${digits.slice(0, 2)} / ${digits.slice(2)}` : digits;
}

export function formatCvc(value: string): string {
  return digitsOnly(value).slice(0, 4);
}

/** The Luhn checksum every card number carries. */
export function luhnValid(number: string): boolean {
  const digits = digitsOnly(number);
  if (digits.length === 0) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Month and four-digit year of 'MM / YY' (or 'MMYY'), or null when incomplete. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const digits = digitsOnly(value);
  if (digits.length !== 4) return null;
  return { month: Number(digits.slice(0, 2)), year: 2000 + Number(digits.slice(2)) };
}

/** Field errors for the card form; empty when the card can be sent for authorisation. */
export function validateCardInput(input: CardInput, now: Date): CardErrors {
  const errors: CardErrors = {};
  const number = digitsOnly(input.cardNumber);
  if (number.length < 13) errors.cardNumber = CARD_MESSAGES.numberRequired;
  else if (!luhnValid(number)) errors.cardNumber = CARD_MESSAGES.numberInvalid;

  const expiry = parseExpiry(input.expiry);
  if (!expiry) errors.expiry = CARD_MESSAGES.expiryIncomplete;
  else if (expiry.month < 1 || expiry.month > 12) errors.expiry = CARD_MESSAGES.expiryMonthInvalid;
  else {
    // A card is valid through the last day of its expiry month.
    const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
    if (expiry.year * 12 + (expiry.month - 1) < thisMonth) errors.expiry = CARD_MESSAGES.expiryPast;
  }

  const cvc = digitsOnly(input.cvc);
  if (cvc.length < 3 || cvc.length > 4 || cvc.length !== input.cvc.trim().length) errors.cvc = CARD_MESSAGES.cvcIncomplete;

  if (input.name.trim().length === 0) errors.name = CARD_MESSAGES.nameRequired;
  return errors;
}
