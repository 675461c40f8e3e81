import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { actAsNewVisitor, readLatestMail, uniqueEmail } from './fixtures';

// Free trials (TRIAL_DAYS=7, the 'trials' project's own server): a trial buyer gets access and is
// charged nothing; a second trial by the same TradingView username is refused, charged and told why.

const PASSWORD = 'my-trial-password';

const uniqueUsername = (prefix: string) => `${prefix}_${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

/** Landing → the Monthly card (which advertises the trial) → the sandbox checkout: $0.00 due today → paid with `card`. */
async function startTrial(page: Page, email: string, card: string) {
  await page.goto('/');
  const monthly = page.locator('#prices').getByRole('article', { name: 'Monthly' });
  await expect(monthly.getByText('7-day free trial, then $36/month')).toBeVisible();
  await monthly.getByRole('button', { name: 'Start now' }).click();
  await page.waitForURL(/\/sandbox\/checkout\//);
  await expect(page.getByTestId('due-today')).toHaveText('$0.00');
  await expect(page.getByText(/^Nothing is charged today\. \$36\.00 per month from /).first()).toBeVisible();
  await page.getByLabel(/email/i).fill(email);
  await page.getByLabel(/card number/i).fill(card);
  await page.getByLabel(/expir/i).fill('12 / 34');
  await page.getByLabel(/cvc/i).fill('123');
  await page.getByLabel(/name on card/i).fill('Trial Buyer');
  await page.getByRole('button', { name: /Start free trial/ }).click();
  await page.waitForURL(/\/payment-success\?session_id=/);
}

/** On the payment page: a password, then the TradingView username; lands in the dashboard. */
async function finishSetup(page: Page, username: string) {
  await expect(page.getByRole('region', { name: 'Order Summary' })).toContainText('$0.00');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.getByLabel('TradingView Username').fill(username);
  await page.getByRole('button', { name: 'Activate Premium Access', exact: true }).click();
  await page.waitForURL(/\/dashboard/);
}

async function memberTrial(page: Page) {
  return ((await (await page.request.get('/api/trial')).json()) as { trial: { outcome: string; repeatReason: string | null } | null }).trial;
}

test('a trial buyer gets access and TradingView access, and is charged nothing', async ({ page }) => {
  await actAsNewVisitor(page);
  const username = uniqueUsername('trialist');
  await startTrial(page, uniqueEmail('trial'), '4242 4242 4242 4242');
  await finishSetup(page, username);

  expect(((await (await page.request.get('/api/access')).json()) as { hasAccess: boolean }).hasAccess).toBe(true);
  await expect
    .poll(async () => (await (await page.request.get('/api/tradingview/status')).json()) as { status: string }, { message: 'TradingView access granted', timeout: 20_000 })
    .toMatchObject({ status: 'granted' });
  expect(((await (await page.request.get('/api/subscription')).json()) as { status: string }).status).toBe('trialing');
  expect(await memberTrial(page)).toMatchObject({ outcome: 'running' });

  await page.goto('/dashboard/settings?section=subscription');
  await expect(page.getByTestId('trial-notice')).toContainText(/Free trial until .+\. Then \$36\.00\/month is charged unless you cancel before\./);
});

test('a second trial by the same TradingView username is refused and charged, and the buyer is told why', async ({ page, browser }) => {
  // two whole purchases and two account set-ups: on a machine shared with CPU hogs they outlast one test's budget
  test.slow();
  const username = uniqueUsername('farmer');
  // the first trial, in a browser of its own
  const first = await browser.newPage();
  await actAsNewVisitor(first);
  await startTrial(first, uniqueEmail('first-trial'), '5555 5555 5555 4444');
  await finishSetup(first, username);
  // (decision 048) while the first trial gives access the name is its member's alone: the first
  // trial is canceled and its period ends, and the repeat is found when the name is claimed again
  await first.goto('/dashboard/settings?section=subscription');
  await first.getByRole('button', { name: 'Manage Subscription' }).click();
  await first.waitForURL(/\/sandbox\/portal\//);
  await first.getByRole('button', { name: 'Cancel plan' }).click();
  await first.getByRole('dialog').getByRole('button', { name: 'Cancel plan' }).click();
  await expect(first.getByRole('button', { name: 'Resume plan' })).toBeVisible();
  await first.getByRole('button', { name: 'Simulate period end' }).click();
  await expect.poll(async () => ((await (await first.request.get('/api/access')).json()) as { hasAccess: boolean }).hasAccess, { timeout: 30_000 }).toBe(false);
  await first.close();

  await actAsNewVisitor(page);
  const email = uniqueEmail('second-trial');
  await startTrial(page, email, '6011 1111 1111 1117');
  await finishSetup(page, username);

  await expect(page.getByTestId('trial-notice')).toHaveText(
    'No free trial: This TradingView username already had a free trial. Free trials are one per person, so your plan started now and $36.00 was charged.',
  );
  expect(await memberTrial(page)).toMatchObject({ outcome: 'refused_repeat', repeatReason: 'tradingview_username' });
  await expect.poll(async () => ((await (await page.request.get('/api/subscription')).json()) as { status: string }).status, { message: 'the plan is charged and active' }).toBe('active');
  // (#46) Settings shows the plan's price, not the trial checkout's $0.00
  expect(((await (await page.request.get('/api/subscription')).json()) as { amount: number }).amount).toBe(3600);
  await page.goto('/dashboard/settings?section=subscription');
  await expect(page.getByRole('region', { name: 'Subscription' }).locator('div', { has: page.getByText('Price', { exact: true }) }).last()).toContainText('$36.00');
  const mail = await readLatestMail(page.request, email, { subject: /free trial was not available/ });
  expect(mail.text).toContain('$36.00 was charged to your card');
});
