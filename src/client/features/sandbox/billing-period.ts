/** 'per month', 'every 3 months', 'per year', or 'one-time payment' (no billing period). */
export function billingPeriod(intervalMonths: number | null): string {
  if (intervalMonths === null) return 'one-time payment';
  if (intervalMonths === 1) return 'per month';
  if (intervalMonths === 12) return 'per year';
  return `every ${intervalMonths} months`;
}
