/**
 * How deeply a request's JSON may nest (arrays and objects). Every body the shop reads is a few
 * levels deep, and Stripe's events about a dozen; anything deeper is refused before it is parsed.
 */
export const JSON_MAX_DEPTH = 32;
