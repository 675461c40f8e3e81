import { expect, test } from './test';
import { asNewVisitor, linkInMail, readLatestMail, uniqueEmail } from './fixtures';

// The mailed link in the browser: a buyer pays in the sandbox and closes the tab;
// the session id alone opens nothing in another browser, but the mailed "Finish setting up your
// access" link continues the same /payment-success flow there: password, username, access.

test('pay, close the tab, open the mailed link in a new browser, create the password and get access', async ({ browser }) => {
  const email = uniqueEmail('mailed-link');
  const visitor = asNewVisitor();

  // The browser that pays, then goes away.
  const payingContext = await browser.newContext({ extraHTTPHeaders: visitor });
  const paying = await payingContext.newPage();
  await paying.goto('/');
  await paying.locator('#prices').getByRole('article', { name: 'Monthly' }).getByRole('button', { name: 'Start now' }).click();
  await paying.waitForURL(/\/sandbox\/checkout\//);
  await paying.getByLabel(/email/i).fill(email);
  await paying.getByLabel(/card number/i).fill('4242 4242 4242 4242');
  await paying.getByLabel(/expir/i).fill('12 / 34');
  await paying.getByLabel(/cvc/i).fill('123');
  const name = paying.getByLabel(/name on card|cardholder/i);
  if (await name.count()) await name.fill('Mailed Buyer');
  await paying.getByRole('button', { name: /^pay/i }).click();
  await paying.waitForURL(/\/payment-success\?session_id=/);
  const successUrl = paying.url();
  await expect(paying.getByRole('heading', { name: 'Create your account password to get started' })).toBeVisible();
  await payingContext.close();

  const context = await browser.newContext({ extraHTTPHeaders: asNewVisitor() });
  const page = await context.newPage();

  // The success URL alone (history, a screenshot): no password form, the e-mail masked.
  await page.goto(successUrl);
  await expect(page.getByRole('heading', { name: 'Continue from your e-mail' })).toBeVisible();
  await expect(page.getByLabel('Password', { exact: true })).toHaveCount(0);
  await expect(page.getByText(email)).toHaveCount(0);

  // The purchase left two mails: the receipt and the link.
  const receipt = await readLatestMail(page.request, email, { subject: 'receipt' });
  expect(receipt.text).toContain('Plan: Monthly');
  const finish = await readLatestMail(page.request, email, { subject: 'Finish setting up' });
  const link = linkInMail(finish, '/payment-success');
  expect(new URL(link).searchParams.get('session_id')).toBe(new URL(successUrl).searchParams.get('session_id'));

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Create your account password to get started' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Order Summary' })).toContainText(email);
  await page.getByLabel('Password', { exact: true }).fill('from-the-mail-1');
  await page.getByLabel('Confirm Password').fill('from-the-mail-1');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('heading', { name: 'Activate Premium Access' })).toBeVisible();
  await page.getByLabel('TradingView Username').fill('mailed_chartist');
  await page.getByRole('button', { name: 'Activate Premium Access', exact: true }).click();

  await page.waitForURL(/\/dashboard/);
  expect(((await (await page.request.get('/api/access')).json()) as { hasAccess: boolean }).hasAccess).toBe(true);
  // Activation adds the third mail once the grant is read back.
  const active = await readLatestMail(page.request, email, { subject: 'Your TradingView access is active' });
  expect(active.text).toContain('TradingView username: mailed_chartist');
  await context.close();
});
