// Sales tax as the sandbox payment provider computes it (with Stripe, Stripe Tax decides): the
// standard VAT rate of each EU member state applied to buyers with an EU billing address, nothing
// elsewhere. Prices are tax-exclusive (VAT is added on top) or tax-inclusive (the price holds it).
// Rates are in basis points (1 % = 100) so that 25.5 % stays an integer; money in minor units.

/** Standard VAT rates of the 27 member states (European Commission, "VAT rates applied in the Member States", 2025). */
export const EU_VAT_RATES = {
  AT: 2000,
  BE: 2100,
  BG: 2000,
  CY: 1900,
  CZ: 2100,
  DE: 1900,
  DK: 2500,
  EE: 2400,
  ES: 2100,
  FI: 2550,
  FR: 2000,
  GR: 2400,
  HR: 2500,
  HU: 2700,
  IE: 2300,
  IT: 2200,
  LT: 2100,
  LU: 1700,
  LV: 2100,
  MT: 1800,
  NL: 2100,
  PL: 2300,
  PT: 2300,
  RO: 2100,
  SE: 2500,
  SI: 2200,
  SK: 2300,
} as const satisfies Record<string, number>;

export type EuCountry = keyof typeof EU_VAT_RATES;

/** Every assigned ISO 3166-1 alpha-2 code: what a billing address may name. */
export const COUNTRY_CODES: readonly string[] = (
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
  'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
  'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
  'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
  'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

const KNOWN = new Set(COUNTRY_CODES);

/** The billing country the checkout starts on. */
export const DEFAULT_BILLING_COUNTRY = 'US';

/** Longest tax ID the checkout takes (EU VAT numbers are at most 14 characters; other schemes stay well below). */
export const TAX_ID_MAX_LENGTH = 40;

export const TAX_TEXTS = {
  unknownCountry: 'Please choose a billing country from the list.',
  taxIdTooLong: `Tax IDs are at most ${TAX_ID_MAX_LENGTH} characters long.`,
  taxIdInvalid: 'Tax IDs contain only letters, digits, spaces, dots and dashes.',
} as const;

export function isCountryCode(value: unknown): value is string {
  return typeof value === 'string' && KNOWN.has(value);
}

/** The VAT rate for a billing country in basis points: the member state's standard rate, 0 outside the EU. */
export function vatRate(country: string): number {
  return (EU_VAT_RATES as Record<string, number>)[country] ?? 0;
}

export type TaxBehavior = 'exclusive' | 'inclusive';

export type TaxBreakdown = {
  /** Basis points applied (0: no tax). */
  rate: number;
  /** The price before tax. */
  subtotal: number;
  /** The tax part, rounded to the minor unit. */
  tax: number;
  /** What the buyer pays. */
  total: number;
};

/**
 * Tax on `amount` (minor units) for a buyer in `country`. Exclusive: VAT is added on top of the
 * price. Inclusive: the price is what the buyer pays and VAT is the part of it above
 * price / (1 + rate). Negative amounts (credits) carry no tax.
 */
export function taxFor(amount: number, country: string | null, behavior: TaxBehavior): TaxBreakdown {
  const rate = country ? vatRate(country) : 0;
  if (rate === 0 || amount <= 0) return { rate, subtotal: amount, tax: 0, total: amount };
  if (behavior === 'exclusive') {
    const tax = Math.round((amount * rate) / 10_000);
    return { rate, subtotal: amount, tax, total: amount + tax };
  }
  const net = Math.round((amount * 10_000) / (10_000 + rate));
  return { rate, subtotal: net, tax: amount - net, total: amount };
}

/** A rate as buyers read it: 2000 → '20%', 2550 → '25.5%'. */
export function formatRate(rate: number): string {
  return `${Number((rate / 100).toFixed(2))}%`;
}

/** A country's English name for the billing select ('DE' → 'Germany'); the code when the runtime has no names. */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
