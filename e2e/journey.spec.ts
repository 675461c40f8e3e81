import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './test';
import { TEST_PASSWORD, actAsNewVisitor, asNewVisitor, sameOrigin, uniqueEmail } from './fixtures';

// The buyer's whole journey on the sandbox (the payment-success page by userStatus): the
// landing page's Monthly card, the sandbox provider's hosted checkout paid with Stripe's
// always-succeeding test card, then the payment-success page for each kind of buyer, into the
// dashboard. The server runs with SANDBOX_TRADINGVIEW_MISSING_USERNAMES=ghost_trader.

const SUCCEEDING_CARD = '4242 4242 4242 4242';
const NEW_PASSWORD = 'my-chart-password';

/** An account made elsewhere (another device): the page itself stays signed out. */
async function createAccountElsewhere(request: APIRequestContext, email: string) {
  const response = await request.post('/api/auth/sign-up/email', {
    data: { email, password: TEST_PASSWORD, name: 'returning' },
    headers: { ...asNewVisitor(), ...sameOrigin() },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/** Landing page → 'Start now' on the Monthly card → the sandbox's hosted checkout. */
async function chooseMonthly(page: Page) {
  await page.goto('/');
  const monthly = page.locator('#prices').getByRole('article', { name: 'Monthly' });
  await monthly.getByRole('button', { name: 'Start now' }).click();
  await page.waitForURL(/\/sandbox\/checkout\//);
}

/** Pays on the sandbox checkout page; `email` is typed only when the shop did not fix it. */
async function payWithTestCard(page: Page, email?: string) {
  if (email) await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/card number/i).fill(SUCCEEDING_CARD);
  await page.getByLabel(/expir/i).fill('12 / 34');
  await page.getByLabel(/cvc/i).fill('123');
  const name = page.getByLabel(/name on card|cardholder/i);
  if (await name.count()) await name.fill('Test Buyer');
  await page.getByRole('button', { name: /^pay/i }).click();
  await page.waitForURL(/\/payment-success\?session_id=/);
}

async function giveUsername(page: Page, button: 'Activate Premium Access' | 'Activate Subscription', username: string) {
  await page.getByLabel('TradingView Username').fill(username);
  await page.getByRole('button', { name: button, exact: true }).click();
}

/** The member area, and TradingView access for `username` actually granted by the reconciler. */
async function expectMemberWithAccess(page: Page, email: string, username: string) {
  await page.waitForURL(/\/dashboard/);
  await expect(page.getByRole('link', { name: 'Guides' }).first()).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();
  expect(((await (await page.request.get('/api/access')).json()) as { hasAccess: boolean }).hasAccess).toBe(true);
  await expect
    .poll(async () => (await (await page.request.get('/api/tradingview/status')).json()) as { username: string | null; status: string }, {
      message: 'TradingView access granted',
      timeout: 20_000,
    })
    .toMatchObject({ username, status: 'granted' });
}

test.describe('after payment', () => {
  test('a new buyer pays, creates a password, gives a TradingView username and lands in the dashboard', async ({ page }) => {
    await actAsNewVisitor(page);
    const email = uniqueEmail('new-buyer');
    await chooseMonthly(page);
    await payWithTestCard(page, email);

    await expect(page.getByRole('heading', { name: 'Payment Successful!' })).toBeVisible();
    const summary = page.getByRole('region', { name: 'Order Summary' });
    await expect(summary).toContainText('Monthly subscription');
    await expect(summary).toContainText('$36.00');
    await expect(summary).toContainText(email);
    await expect(page.getByRole('region', { name: 'What happens next' })).toContainText('1–2 hours');

    await expect(page.getByRole('heading', { name: 'Create your account password to get started' })).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Account created!')).toBeVisible();

    await expect(page.getByRole('heading', { name: 'Activate Premium Access' })).toBeVisible();
    await giveUsername(page, 'Activate Premium Access', 'new_chartist');
    await expect(page.getByText('TradingView Access Activated!')).toBeVisible();
    await expectMemberWithAccess(page, email, 'new_chartist');

    // The password chosen on the payment page is the account's password.
    await page.context().clearCookies();
    const login = await page.request.post('/api/auth/sign-in/email', { data: { email, password: NEW_PASSWORD }, headers: { ...asNewVisitor(), ...sameOrigin() } });
    expect(login.status()).toBe(200);
  });

  test('a buyer with an account who is signed out logs in on the payment page, gives a username and lands in the dashboard', async ({ page, request }) => {
    await actAsNewVisitor(page);
    const email = uniqueEmail('returning');
    await createAccountElsewhere(request, email);
    await chooseMonthly(page);
    await payWithTestCard(page, email);

    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await expect(page.getByLabel('Email', { exact: true })).toBeDisabled();
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);

    await page.getByLabel('Password', { exact: true }).fill('not-my-password');
    await page.getByRole('button', { name: 'Log In & Activate Access' }).click();
    await expect(page.getByText('Incorrect password. Please try again.')).toBeVisible();

    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Log In & Activate Access' }).click();
    await expect(page.getByText('Welcome back! Processing your purchase...')).toBeVisible();

    await expect(page.getByRole('heading', { name: 'Activate Your Subscription' })).toBeVisible();
    await giveUsername(page, 'Activate Subscription', 'returning_trader');
    await expect(page.getByText('TradingView Access Activated!')).toBeVisible();
    await expectMemberWithAccess(page, email, 'returning_trader');
  });

  test('a signed-in buyer gives a username and lands in the dashboard', async ({ page }) => {
    await actAsNewVisitor(page);
    const email = uniqueEmail('signed-in');
    const signUp = await page.request.post('/api/auth/sign-up/email', { data: { email, password: TEST_PASSWORD, name: 'member' } });
    expect(signUp.status(), await signUp.text()).toBe(200);

    await chooseMonthly(page);
    // The shop fixed the e-mail to the signed-in account's.
    await payWithTestCard(page);

    await expect(page.getByRole('heading', { name: 'Activate Your Subscription' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Order Summary' })).toContainText(email);
    await giveUsername(page, 'Activate Subscription', 'signed_in_trader');
    await expect(page.getByText('TradingView Access Activated!')).toBeVisible();
    await expectMemberWithAccess(page, email, 'signed_in_trader');
  });

  test('a TradingView username that does not exist is refused with the reason, and a real one then works', async ({ page }) => {
    await actAsNewVisitor(page);
    const email = uniqueEmail('ghost');
    await chooseMonthly(page);
    await payWithTestCard(page, email);
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();

    await expect(page.getByRole('heading', { name: 'Activate Premium Access' })).toBeVisible();
    await giveUsername(page, 'Activate Premium Access', 'ghost_trader');
    await expect(page.getByText('TradingView Activation Failed')).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'This TradingView username does not exist. Please check your username and try again.' })).toBeVisible();
    await expect(page).toHaveURL(/\/payment-success/);

    // the same failure again is said once: one notice and the text under the field, not a second toast (#46)
    const again = page.waitForResponse((response) => response.request().method() === 'POST' && /activate/.test(response.url()));
    await giveUsername(page, 'Activate Premium Access', 'ghost_trader');
    expect((await again).ok()).toBe(false);
    await expect(page.getByRole('button', { name: 'Activate Premium Access', exact: true })).toBeEnabled();
    await expect(page.getByText('TradingView Activation Failed')).toHaveCount(1);
    await expect(page.getByText('This TradingView username does not exist. Please check your username and try again.')).toHaveCount(2);

    await giveUsername(page, 'Activate Premium Access', 'real_trader');
    await expectMemberWithAccess(page, email, 'real_trader');
  });

  test('a payment session id nobody paid shows the error, and no session id shows Invalid Payment Session', async ({ page }) => {
    await page.goto('/payment-success?session_id=cs_sbx_made_up');
    await expect(page.getByRole('heading', { name: 'Error loading payment details' })).toBeVisible();
    await page.goto('/payment-success');
    await expect(page.getByRole('heading', { name: 'Invalid Payment Session' })).toBeVisible();
  });
});

test.describe('around payment', () => {
  test('a canceled payment offers to try again at the pricing cards', async ({ page }) => {
    await page.goto('/payment-canceled');
    await expect(page.getByRole('heading', { name: 'Payment Canceled' })).toBeVisible();
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(page).toHaveURL(/\/#prices$/);
    await expect(page.locator('#prices')).toBeInViewport();
  });

  test('canceling on the checkout page started from /eu returns to the EU pricing cards', async ({ page }) => {
    await page.goto('/eu');
    await page.locator('#prices').getByRole('article', { name: 'Monthly' }).getByRole('button', { name: 'Start now' }).click();
    await page.waitForURL(/\/sandbox\/checkout\//);
    await page.getByRole('link', { name: /cancel and return/i }).click();
    await page.waitForURL(/\/payment-canceled\?from=/);
    await expect(page.getByRole('heading', { name: 'Payment Canceled' })).toBeVisible();

    // Back is history back: to the provider's checkout page the buyer came from.
    await page.getByRole('button', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/sandbox\/checkout\//);
    await page.getByRole('link', { name: /cancel and return/i }).click();
    await expect(page.getByRole('heading', { name: 'Payment Canceled' })).toBeVisible();

    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(page).toHaveURL(/\/eu#prices$/);
    await expect(page.locator('#prices')).toBeInViewport();
  });

  test('a signed-in user without a subscription is told so on /premium-access-required and sent to pricing', async ({ page }) => {
    await actAsNewVisitor(page);
    const signUp = await page.request.post('/api/auth/sign-up/email', { data: { email: uniqueEmail('no-plan'), password: TEST_PASSWORD, name: 'x' }, headers: asNewVisitor() });
    expect(signUp.status()).toBe(200);
    await page.goto('/dashboard');
    await page.waitForURL(/\/premium-access-required$/);
    await expect(page.getByText('You need an active subscription to access the dashboard.')).toBeVisible();
    await page.getByRole('button', { name: 'Get Premium Access' }).click();
    await expect(page).toHaveURL(/\/#prices$/);
  });
});
