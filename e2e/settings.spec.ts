import type { Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import { asNewVisitor, sameOrigin } from './fixtures';
import { createMember, TEST_PASSWORD } from './member';

// /dashboard/settings (the upgrade flow and its messages) for a member who bought Monthly on
// the sandbox provider: the subscription, a prorated change to Quarterly with its preview, the
// TradingView username correction, and signing out of every device.

/** The value shown beside a label in a settings card. */
const rowValue = (card: Locator, label: string) => card.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]');

/** '$48.00' or '−$12.00' → 4800 / 1200 (minor units, sign dropped). */
const minorUnits = (text: string) => Math.round(Number(text.replace(/[^0-9.]/g, '')) * 100);

async function openSettings(page: Page, section?: string) {
  await page.goto(section ? `/dashboard/settings?section=${section}` : '/dashboard/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
}

test('a monthly member sees the subscription, changes to Quarterly with a preview, and signs out of all devices', async ({ page, browser }) => {
  const { email } = await createMember(page);

  await openSettings(page);
  const account = page.getByRole('region', { name: 'My Account' });
  await expect(rowValue(account, 'Email Address')).toHaveText(email);
  await expect(rowValue(account, 'Plan')).toHaveText('Monthly');

  const subscription = page.getByRole('region', { name: 'Subscription' });
  await expect(rowValue(subscription, 'Status')).toContainText('Active');
  await expect(rowValue(subscription, 'Plan Type')).toHaveText('Monthly');
  await expect(rowValue(subscription, 'Price')).toHaveText('$36.00');
  await expect(subscription.getByRole('button', { name: 'Manage Subscription' })).toBeEnabled();
  await expect(page.getByRole('region', { name: 'Security' })).toBeVisible();

  // Change Monthly → Quarterly: preview, confirm, success sequence, back on the plan card.
  const plans = page.getByRole('region', { name: 'Change Plan' });
  const monthly = plans.getByRole('article', { name: 'Monthly plan' });
  const quarterly = plans.getByRole('article', { name: 'Quarterly plan' });
  await expect(monthly.getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await quarterly.getByRole('button', { name: 'Change to Quarterly' }).click();

  const dialog = page.getByRole('dialog', { name: 'Confirm Plan Change' });
  await expect(dialog).toContainText('Change from Monthly to Quarterly.');
  const credit = minorUnits(await dialog.getByTestId('preview-credit').innerText());
  const charge = minorUnits(await dialog.getByTestId('preview-charge').innerText());
  const total = minorUnits(await dialog.getByTestId('preview-total').innerText());
  // Just bought: almost the whole month is unused and credited against the $72 quarter.
  expect(charge).toBe(7200);
  expect(credit).toBeGreaterThan(3000);
  expect(credit).toBeLessThanOrEqual(3600);
  expect(total).toBe(charge - credit);

  await dialog.getByRole('button', { name: 'Confirm Change' }).click();
  await expect(page.getByText('Plan Updated Successfully')).toBeVisible();
  await expect(page.getByText('Your subscription has been updated to Quarterly.')).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard\/settings\?section=upgrade$/);
  await expect(quarterly.getByRole('button', { name: 'Current Plan' })).toBeDisabled();
  await expect(quarterly.getByText('Current Plan', { exact: true }).first()).toBeVisible();
  await expect(monthly.getByRole('button', { name: 'Change to Monthly' })).toBeEnabled();
  await expect(page.getByRole('region', { name: 'Subscription' })).toHaveCount(0);

  await openSettings(page, 'subscription');
  await expect(rowValue(page.getByRole('region', { name: 'Subscription' }), 'Plan Type')).toHaveText('Quarterly');
  expect((await (await page.request.get('/api/access')).json()).hasAccess).toBe(true);

  // A second device signed in as the same member.
  const otherDevice = await browser.newContext({ extraHTTPHeaders: asNewVisitor() });
  const signIn = await otherDevice.request.post('/api/auth/sign-in/email', { data: { email, password: TEST_PASSWORD }, headers: sameOrigin() });
  expect(signIn.status(), await signIn.text()).toBe(200);
  expect((await (await otherDevice.request.get('/api/auth/get-session')).json())?.user?.email).toBe(email);

  await openSettings(page);
  await page.getByRole('region', { name: 'Security' }).getByRole('button', { name: 'Sign Out of All Devices' }).click();
  const confirm = page.getByRole('dialog', { name: 'Sign out of all devices?' });
  await confirm.getByRole('button', { name: 'Sign Out Everywhere' }).click();
  await expect(page).toHaveURL(/\/auth$/);

  expect(await (await page.request.get('/api/auth/get-session')).json()).toBeNull();
  expect(await (await otherDevice.request.get('/api/auth/get-session')).json()).toBeNull();
  expect((await otherDevice.request.get('/api/access')).status()).toBe(401);
  await page.goto('/dashboard/settings');
  await expect(page).toHaveURL(/\/auth\?redirect=/);
  await otherDevice.close();
});

test('a member corrects their TradingView username; an unknown one is refused', async ({ page }) => {
  await createMember(page);
  await openSettings(page, 'account');
  const account = page.getByRole('region', { name: 'My Account' });
  await expect(account.getByRole('note')).toContainText('If it is wrong, you will not get access to the indicators.');

  await account.getByRole('button', { name: /^(Change|Add)$/ }).click();
  const input = account.getByLabel('New TradingView username');
  // The sandbox TradingView knows no 'ghost_trader' (SANDBOX_TRADINGVIEW_MISSING_USERNAMES).
  await input.fill('ghost_trader');
  await account.getByRole('button', { name: 'Save Username' }).click();
  await expect(page.getByText('TradingView Activation Failed')).toBeVisible();
  await expect(page.getByText('This TradingView username does not exist. Please check your username and try again.')).toBeVisible();

  await input.fill('chart_wizard_42');
  await account.getByRole('button', { name: 'Save Username' }).click();
  await expect(page.getByText('TradingView Username Updated')).toBeVisible();
  await expect(rowValue(account, 'TradingView Username')).toContainText('chart_wizard_42');
  // The reconciler grants the new username within a few seconds on the sandbox.
  await expect(rowValue(account, 'TradingView Username')).toContainText(/Access (pending|granted)/);
});
