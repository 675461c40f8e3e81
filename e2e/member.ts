import { expect, type Page } from '@playwright/test';
import { DEFAULT_BILLING_COUNTRY } from '../src/shared/vat';
import { TEST_PASSWORD, asNewVisitor, uniqueEmail } from './fixtures';

// Fixtures for browser tests that need a signed-in user, with or without premium access. Access is
// bought the way a member buys it: a signed-in checkout on the sandbox provider, paid with the call
// its hosted page makes (or on the page) with Stripe's always-succeeding test card. Nothing is
// written to the database behind the app's back.

export { TEST_PASSWORD, uniqueEmail };
export const SUCCEEDING_CARD = '4242 4242 4242 4242';

/** Signs up through better-auth with the page's request context: the page is then signed in. */
export async function signUp(page: Page, email = uniqueEmail('user')): Promise<{ email: string }> {
  // The Origin a browser would send (see sameOrigin); read from the context itself, as this also
  // runs in worker fixtures, outside any test.
  const origin = new URL((await page.request.get('/healthz')).url()).origin;
  const response = await page.request.post('/api/auth/sign-up/email', {
    data: { email, password: TEST_PASSWORD, name: email.split('@')[0] },
    headers: { ...asNewVisitor(), origin },
  });
  expect(response.status(), await response.text()).toBe(200);
  return { email };
}

type MemberOptions = {
  /**
   * Pay on the sandbox's hosted checkout page and end on /payment-success, as a buyer does. By
   * default the payment is the call that page makes (POST /api/sandbox/checkout/:id/pay): the
   * page itself is covered by billing.spec.ts and the journeys, and loading it for every member
   * a test needs was a browser page of CPU each on a busy 2-core machine.
   */
  throughCheckoutPage?: boolean;
  /** The plan bought, Monthly by default, and the page whose price list sells it, '/' by default. */
  planType?: string;
  originPage?: string;
};

/**
 * A signed-in member with an active monthly subscription (or `options.planType` from `options.originPage`): sign up, start a checkout as that user
 * with the same e-mail (the sandbox then links the payment to the account), pay with
 * 4242 4242 4242 4242, and wait until the server grants access.
 */
export async function createMember(page: Page, email = uniqueEmail('member'), options: MemberOptions = {}): Promise<{ email: string }> {
  await signUp(page, email);

  const checkout = await page.request.post('/api/create-checkout', {
    data: { planType: options.planType ?? 'monthly', customerEmail: email, fbc: null, fbp: null, userAgent: null, originPage: options.originPage ?? '/' },
  });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { url, sessionId } = (await checkout.json()) as { url: string; sessionId: string };
  expect(url).toMatch(/\/sandbox\/checkout\//);

  if (options.throughCheckoutPage) {
    await page.goto(url);
    await page.getByLabel('Card number').fill(SUCCEEDING_CARD);
    await page.getByLabel('Expiry').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByLabel('Name on card').fill('Test Member');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL(/\/payment-success/);
  } else {
    // the page's own request: the e-mail is the account's, the billing country the one it defaults to while tax is on
    const paid = await page.request.post(`/api/sandbox/checkout/${encodeURIComponent(sessionId)}/pay`, {
      data: { email: null, cardNumber: SUCCEEDING_CARD, expiry: '12 / 34', cvc: '123', name: 'Test Member', billingCountry: DEFAULT_BILLING_COUNTRY },
    });
    expect(paid.status(), await paid.text()).toBe(200);
  }

  await expect
    .poll(async () => ((await (await page.request.get('/api/access')).json()) as { hasAccess?: boolean }).hasAccess, {
      message: 'premium access after paying',
    })
    .toBe(true);
  return { email };
}
