import { expect, test } from './test';
import { signUp, SUCCEEDING_CARD, uniqueEmail } from './member';

// Tax and invoices (STRIPE_TAX on the journeys' server): a member with an EU billing address sees
// VAT on the sandbox checkout, pays it, finds it on the payment page and on the receipt, and sees
// the invoice with its tax in Settings → Subscription, linking to the sandbox's receipt page.
test('a buyer in Germany sees 19 % VAT at checkout, pays it, and finds the invoice in Settings → Subscription', async ({ page, context }) => {
  const email = uniqueEmail('vat');
  await signUp(page, email);
  const checkout = await page.request.post('/api/create-checkout', {
    data: { planType: 'monthly', customerEmail: email, fbc: null, fbp: null, userAgent: null, originPage: '/' },
  });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { url } = (await checkout.json()) as { url: string };

  await page.goto(url);
  const summary = page.getByRole('region', { name: 'Order summary' });
  const country = page.getByLabel('Billing country');
  await expect(country).toHaveValue('US');
  await expect(summary.getByTestId('checkout-tax')).toHaveText('$0.00');
  await expect(summary.getByTestId('due-today')).toHaveText('$36.00');

  await country.selectOption('DE');
  await expect(summary.getByText('VAT 19% (Germany)')).toBeVisible();
  await expect(summary.getByTestId('checkout-tax')).toHaveText('$6.84');
  await expect(summary.getByTestId('due-today')).toHaveText('$42.84');

  await page.getByLabel('Card number').pressSequentially(SUCCEEDING_CARD);
  await page.getByLabel('Expiry').pressSequentially('1239');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Vera Buyer');
  await page.getByLabel('Tax ID (optional)').fill('DE123456789');
  await page.getByRole('button', { name: 'Pay $42.84' }).click();

  await page.waitForURL(/\/payment-success/);
  const order = page.getByRole('region', { name: 'Order Summary' });
  await expect(order.getByText('$42.84')).toBeVisible();
  await expect(order.getByText('Tax included')).toBeVisible();
  await expect(order.getByText('$6.84')).toBeVisible();

  await page.goto('/dashboard/settings?section=subscription');
  const invoices = page.getByRole('region', { name: 'Invoices' });
  const row = invoices.getByRole('row').nth(1);
  await expect(row.getByRole('cell').nth(1)).toHaveText('$42.84');
  await expect(row.getByRole('cell').nth(2)).toHaveText('$6.84');
  await expect(row.getByRole('cell').nth(3)).toHaveText('Paid');

  // The invoice opens the sandbox's receipt page in a new tab: lines, VAT, total, paid.
  const [receipt] = await Promise.all([context.waitForEvent('page'), row.getByRole('link', { name: /^View invoice/ }).click()]);
  await expect(receipt.getByRole('heading', { name: 'Receipt' })).toBeVisible();
  await expect(receipt.getByText('Tax ID DE123456789')).toBeVisible();
  await expect(receipt.getByRole('row', { name: /VAT 19% \(Germany\)/ })).toContainText('$6.84');
  await expect(receipt.getByRole('row', { name: /^Total/ })).toContainText('$42.84');
  await expect(receipt.getByTestId('receipt-status')).toHaveText('Paid');
});
