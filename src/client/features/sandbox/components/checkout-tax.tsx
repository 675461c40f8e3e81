// Tax on the sandbox checkout page (STRIPE_TAX), as Stripe Checkout shows it: a billing country
// (the United States by default) and an optional tax ID in the form, and in the summary the
// subtotal, the VAT of an EU country (added on top, or included in the price) and the total.
import { useId, useMemo } from 'react';
import { formatMoney } from '@shared/plans';
import type { SandboxCheckout } from '@shared/sandbox-contract';
import { COUNTRY_CODES, countryName, DEFAULT_BILLING_COUNTRY, formatRate, TAX_ID_MAX_LENGTH, taxFor, type TaxBreakdown } from '@shared/vat';
import { FieldError, Input, Label } from '@client/components/ui/input';

export type Billing = { country: string; taxId: string };

export const INITIAL_BILLING: Billing = { country: DEFAULT_BILLING_COUNTRY, taxId: '' };

/** What the buyer pays for this billing country; null while the shop charges no tax. */
export function checkoutTax(checkout: Pick<SandboxCheckout, 'amount' | 'tax' | 'trialDays'>, country: string): TaxBreakdown | null {
  if (!checkout.tax) return null;
  // a free trial charges nothing today: nothing to tax
  return taxFor(checkout.trialDays ? 0 : checkout.amount, country, checkout.tax.behavior);
}

/** The request fields of the billing address; none while the shop charges no tax. */
export function billingRequest(checkout: Pick<SandboxCheckout, 'tax'>, billing: Billing): { billingCountry?: string; taxId?: string } {
  if (!checkout.tax) return {};
  return { billingCountry: billing.country, ...(billing.taxId.trim() ? { taxId: billing.taxId.trim() } : {}) };
}

/** The billing fields a refused payment names (the server checks the country and the tax ID too). */
export function billingErrorsOf(details: unknown): { billingCountry?: string; taxId?: string } {
  const found: { billingCountry?: string; taxId?: string } = {};
  if (!Array.isArray(details)) return found;
  for (const detail of details as { path?: unknown; message?: unknown }[]) {
    if ((detail.path === 'billingCountry' || detail.path === 'taxId') && typeof detail.message === 'string') found[detail.path] = detail.message;
  }
  return found;
}

/** The summary's tax row: the VAT added or included, or the tax of a country with none. */
export function TaxRow({ checkout, country }: { checkout: SandboxCheckout; country: string }) {
  const tax = checkoutTax(checkout, country);
  if (!tax) return null;
  const place = countryName(country);
  const label = tax.rate === 0 ? `Tax (${place})` : `${checkout.tax?.behavior === 'inclusive' ? 'Includes ' : ''}VAT ${formatRate(tax.rate)} (${place})`;
  return (
    <div className="flex justify-between gap-4 p-4">
      <dt>{label}</dt>
      <dd data-testid="checkout-tax">{formatMoney(tax.tax, checkout.currency)}</dd>
    </div>
  );
}

/** Billing country and tax ID, shown only while the shop charges tax. */
export function BillingFields({
  checkout,
  billing,
  onChange,
  disabled,
  errors,
}: {
  checkout: SandboxCheckout;
  billing: Billing;
  onChange: (billing: Billing) => void;
  disabled: boolean;
  errors: { billingCountry?: string | undefined; taxId?: string | undefined };
}) {
  const id = useId();
  // Sorted by name once: ~250 names from Intl.
  const countries = useMemo(() => COUNTRY_CODES.map((code) => ({ code, name: countryName(code) })).sort((a, b) => a.name.localeCompare(b.name)), []);
  if (!checkout.tax) return null;
  return (
    <fieldset className="space-y-4">
      <legend className="sr-only">Billing address</legend>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-country`}>Billing country</Label>
        <select
          id={`${id}-country`}
          value={billing.country}
          disabled={disabled}
          autoComplete="country"
          aria-invalid={errors.billingCountry ? true : undefined}
          aria-describedby={errors.billingCountry ? `${id}-country-error` : undefined}
          onChange={(event) => onChange({ ...billing, country: event.target.value })}
          className="h-10 w-full rounded-lg border border-border bg-black/30 px-3 text-sm text-foreground focus:outline-none focus:ring-2 focus:ring-primary/50 disabled:opacity-60"
        >
          {countries.map((country) => (
            <option key={country.code} value={country.code}>
              {country.name}
            </option>
          ))}
        </select>
        <FieldError id={`${id}-country-error`} message={errors.billingCountry} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-tax-id`}>Tax ID (optional)</Label>
        <Input
          id={`${id}-tax-id`}
          value={billing.taxId}
          disabled={disabled}
          maxLength={TAX_ID_MAX_LENGTH}
          placeholder="e.g. DE123456789"
          aria-invalid={errors.taxId ? true : undefined}
          aria-describedby={errors.taxId ? `${id}-tax-id-error` : undefined}
          onChange={(event) => onChange({ ...billing, taxId: event.target.value })}
        />
        <FieldError id={`${id}-tax-id-error`} message={errors.taxId} />
      </div>
    </fieldset>
  );
}
