// The words of a refused anonymous checkout: which count ran out and when to try again, so a
// buyer in a sale reads what to do instead of a generic failure.

/** `browser`: this browser's own count; `address`: a client without cookies, counted by address; `network`: every browser of one address together. */
export type CheckoutRefusal = { counted: 'browser' | 'address' | 'network'; retryAfterSeconds: number };

function wait(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, seconds)} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

export function checkoutRefusalText({ counted, retryAfterSeconds }: CheckoutRefusal): string {
  const retry = `Please try again in ${wait(retryAfterSeconds)}.`;
  if (counted === 'browser') return `This browser has started too many checkouts in the last few minutes. ${retry}`;
  if (counted === 'network') return `Too many checkouts were started from your network in the last few minutes. ${retry}`;
  return `Too many checkouts were started from your address without cookies. Allow cookies for this site, or ${retry.charAt(0).toLowerCase()}${retry.slice(1)}`;
}
