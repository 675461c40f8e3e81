import type { Page } from '@playwright/test';
import { expect, test } from './test';

// The buyer's side of the sandbox payment provider: its hosted checkout page, as a live shop's
// buyer would meet Stripe Checkout. Checkouts start through the API the pricing cards call.
async function startCheckout(page: Page, planType = 'monthly') {
  const response = await page.request.post('/api/create-checkout', {
    data: { planType, customerEmail: null, fbc: null, fbp: null, userAgent: 'playwright', originPage: '/' },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { url: string; sessionId: string };
}

async function fillCard(page: Page, card: string, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Card number').pressSequentially(card);
  await page.getByLabel('Expiry').pressSequentially('1239');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Ada Buyer');
}

test('a buyer pays a monthly plan with 4242… and lands on the payment-success page', async ({ page }) => {
  const { url, sessionId } = await startCheckout(page);
  await page.goto(url);
  await expect(page.getByText('Subscribe to Candlewise Monthly plan')).toBeVisible();
  await expect(page.getByTestId('checkout-price')).toHaveText('$36.00');
  await expect(page.getByText('Sandbox — no real money')).toBeVisible();

  await fillCard(page, '4242 4242 4242 4242', `buyer-${Date.now()}@example.com`);
  await expect(page.getByLabel('Card number')).toHaveValue('4242 4242 4242 4242');
  await expect(page.getByLabel('Expiry')).toHaveValue('12 / 39');
  await page.getByRole('button', { name: /^Pay \$36\.00$/ }).click();

  await expect(page).toHaveURL(`/payment-success?session_id=${sessionId}`);
});

test('a declined card (4000 0000 0000 0002) shows a clear message and keeps the buyer on the checkout', async ({ page }) => {
  const { url, sessionId } = await startCheckout(page, 'lifetime');
  await page.goto(url);
  await fillCard(page, '4000 0000 0000 0002', `declined-${Date.now()}@example.com`);
  await page.getByRole('button', { name: /^Pay / }).click();

  await expect(page.getByRole('alert')).toHaveText('Your card was declined.');
  await expect(page).toHaveURL(new RegExp(`/sandbox/checkout/${sessionId}$`));
  await expect(page.getByRole('button', { name: /^Pay \$549\.99$/ })).toBeEnabled();
});

test('the cancel link returns to the payment-canceled page', async ({ page }) => {
  const { url } = await startCheckout(page);
  await page.goto(url);
  await page.getByRole('link', { name: 'Cancel and return to Candlewise' }).click();
  await expect(page).toHaveURL('/payment-canceled');
});
