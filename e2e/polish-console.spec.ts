import type { Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import { OPERATOR_COMP_REFUSED } from '../src/shared/member-actions';
import { REFUND_CONFIRMATION } from '../src/shared/order-refunds';
import { VALIDATION_MESSAGES } from '../src/shared/validation';
import { asNewVisitor, linkInMail, readLatestMail, sameOrigin, signInViaUi } from './fixtures';
import { createMember, signUp, TEST_PASSWORD, uniqueEmail } from './member';
import { becomeOperator, searchMembers } from './operator';

// Issue #46 as an operator and a member see it in Chromium: an order refunded from the console
// (confirmed, shown, audited), operators marked in the member list, member actions that do not
// apply disabled with their reason, a downgrade that is not the green button and says what
// happens to the credit, and a password change that signs the other devices out.

const OPERATOR = 'ops-polish@example.com';

const consoleNav = (page: Page) => page.getByRole('navigation', { name: 'Operator console' });

async function openMember(page: Page, email: string) {
  await searchMembers(page, email);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  return row;
}

/** A disabled action button whose description is `reason`. */
async function expectBlocked(button: Locator, reason: string) {
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription(reason);
}

test('an operator refunds an order, sees operators marked, and member actions that do not apply disabled with the reason', async ({ page, browser }) => {
  test.slow();
  const others = await browser.newContext();
  const buyer = await createMember(await others.newPage(), uniqueEmail('refunded-buyer'));
  const bystanders = await browser.newContext();
  const { email: planless } = await signUp(await bystanders.newPage(), uniqueEmail('planless'));
  await others.close();
  await bystanders.close();

  await becomeOperator(page, OPERATOR);

  // the operator is marked in the member list, and comp access and a ban do not apply to them
  const self = await openMember(page, OPERATOR);
  await expect(self.getByText('Operator', { exact: true })).toBeVisible();
  await self.getByRole('link', { name: OPERATOR }).click();
  await expect(page.getByRole('heading', { name: OPERATOR })).toBeVisible();
  await expectBlocked(page.getByRole('button', { name: 'Grant comp access' }), OPERATOR_COMP_REFUSED);
  await expectBlocked(page.getByRole('button', { name: 'Ban member' }), 'An operator of this shop: take away their console access before a ban.');

  // a member without a plan: nothing to revoke, extend or pause; no grant to retry
  const row = await openMember(page, planless);
  await expect(row.getByText('Operator', { exact: true })).toHaveCount(0);
  await row.getByRole('link', { name: planless }).click();
  await expect(page.getByRole('heading', { name: planless })).toBeVisible();
  await expectBlocked(page.getByRole('button', { name: 'Revoke access' }), 'This member has no access to revoke.');
  await expectBlocked(page.getByRole('button', { name: 'Add free days' }), 'This member has no renewing subscription to add free days to.');
  await expectBlocked(page.getByRole('button', { name: 'Pause collection' }), 'This member has no renewing subscription to pause.');
  await expectBlocked(page.getByRole('button', { name: 'Retry grant now' }), 'No TradingView username is linked yet: there is no grant to retry.');
  await expect(page.getByRole('button', { name: 'Grant comp access' })).toBeEnabled();

  // the buyer's order, refunded from Payments: confirmed first, then shown refunded and audited
  await consoleNav(page).getByRole('link', { name: 'Payments' }).click();
  const orders = page.getByRole('table', { name: 'Orders' });
  const order = orders.getByRole('row').filter({ hasText: buyer.email });
  await expect(order).toContainText('Monthly');
  await expect(order).toContainText('Paid');
  await order.getByRole('button', { name: 'Refund' }).click();
  const dialog = page.getByRole('dialog', { name: 'Refund $36.00?' });
  await expect(dialog).toContainText(`${buyer.email}: ${REFUND_CONFIRMATION}`);
  await dialog.getByRole('button', { name: 'Refund $36.00' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Refunded $36.00. The access this order paid for ends when the provider confirms the refund.')).toBeVisible();
  // the order turns refunded when the provider's refund event has been applied
  await expect(async () => {
    await page.reload();
    await expect(order).toContainText('Refunded', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expectBlocked(order.getByRole('button', { name: 'Refund' }), 'This order was refunded already.');

  // the member's page shows the same order refunded, its Refund disabled with the reason
  await order.getByRole('link', { name: buyer.email }).click();
  await expect(page.getByRole('heading', { name: buyer.email })).toBeVisible();
  const memberOrder = page.getByRole('row').filter({ hasText: '$36.00' });
  await expect(memberOrder).toContainText('Refunded');
  await expectBlocked(memberOrder.getByRole('button', { name: 'Refund' }), 'This order was refunded already.');

  await consoleNav(page).getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('row').filter({ hasText: `${OPERATOR} refunded $36.00 to ${buyer.email}` })).toHaveCount(1);
});

test('a downgrade in the plan-change dialog is not the green button and says what happens to the credit', async ({ page }) => {
  test.slow();
  await createMember(page, uniqueEmail('downgrader'));
  await page.goto('/dashboard/settings');
  const plans = page.getByRole('region', { name: 'Change Plan' });
  await plans.getByRole('article', { name: 'Quarterly plan' }).getByRole('button', { name: 'Change to Quarterly' }).click();
  const upgrade = page.getByRole('dialog', { name: 'Confirm Plan Change' });
  const upgradeConfirm = upgrade.getByRole('button', { name: 'Confirm Change' });
  const green = await upgradeConfirm.evaluate((element) => getComputedStyle(element).backgroundColor);
  await upgradeConfirm.click();
  await expect(page.getByText('Your subscription has been updated to Quarterly.')).toBeVisible();

  await plans.getByRole('article', { name: 'Monthly plan' }).getByRole('button', { name: 'Change to Monthly' }).click();
  const downgrade = page.getByRole('dialog', { name: 'Confirm Plan Change' });
  await expect(downgrade).toContainText('Change from Quarterly to Monthly.');
  // the quarter just bought is almost all unused: more credit than a month costs, kept for later invoices
  await expect(downgrade).toContainText(/The credit of \$\d+\.\d\d is what you paid for the rest of your current Quarterly period/);
  await expect(downgrade).toContainText(/left over stays on your account as credit and is taken off your next invoices\. It is not paid out\./);
  const confirm = downgrade.getByRole('button', { name: 'Confirm Change' });
  await expect(confirm).toBeEnabled();
  expect(await confirm.evaluate((element) => getComputedStyle(element).backgroundColor)).not.toBe(green);
});

test('Settings changes the password with the current one and signs the other devices out', async ({ page, browser }) => {
  test.slow();
  const { email } = await createMember(page, uniqueEmail('new-password'));
  // a second device, signed in with the old password
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await signInViaUi(otherPage, email);
  await expect.poll(async () => ((await (await otherPage.request.get('/api/access')).json()) as { hasAccess?: boolean }).hasAccess).toBe(true);

  await page.goto('/dashboard/settings');
  const form = page.getByRole('form', { name: 'Change password' });
  await form.getByLabel('Current Password').fill(TEST_PASSWORD);
  await form.getByLabel('New Password', { exact: true }).fill('Fresh-Passw0rd');
  await form.getByLabel('Confirm New Password').fill('Fresh-Passw0rd');
  await form.getByRole('button', { name: 'Change Password' }).click();
  await expect(page.getByText('Your other devices were signed out.')).toBeVisible();

  // this device stays signed in; the other one is signed out
  expect(((await (await page.request.get('/api/access')).json()) as { hasAccess?: boolean }).hasAccess).toBe(true);
  const session = await otherPage.request.get('/api/auth/get-session');
  expect(await session.json()).toBeNull();
  await other.close();

  // the new password signs in, the old one no longer does
  const old = await page.request.post('/api/auth/sign-in/email', { data: { email, password: TEST_PASSWORD }, headers: { ...asNewVisitor(), ...sameOrigin() } });
  expect(old.status()).toBe(401);
  const fresh = await page.request.post('/api/auth/sign-in/email', { data: { email, password: 'Fresh-Passw0rd' }, headers: { ...asNewVisitor(), ...sameOrigin() } });
  expect(fresh.status()).toBe(200);
});

test.describe('an operator whose browser speaks German, in Berlin', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

  test("reads the console's dates in their own locale and time zone", async ({ page }) => {
    const operator = 'ops-locale@example.com';
    await becomeOperator(page, operator);
    const row = await openMember(page, operator);
    // the account was made a moment ago: today, as a German reader in Berlin writes it ("29. Nov. 2026")
    const today = new Intl.DateTimeFormat('de-DE', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'Europe/Berlin' }).format(new Date());
    expect(today).not.toMatch(/^[A-Z][a-z]{2} /);
    await expect(row.getByRole('cell').last()).toHaveText(today);
  });
});

test("the operator invitation page names only the password rules not met, not the sign-up form's sentence", async ({ page, browser }) => {
  await becomeOperator(page, 'ops-invite@example.com');
  const colleague = uniqueEmail('invited-colleague');
  await consoleNav(page).getByRole('link', { name: 'Operators' }).click();
  await page.getByRole('textbox', { name: 'Invite an operator' }).fill(colleague);
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const link = linkInMail(await readLatestMail(page.request, colleague), '/operator-invitation');

  const invited = await browser.newContext({ extraHTTPHeaders: asNewVisitor() });
  const invitation = await invited.newPage();
  await invitation.goto(link);
  await expect(invitation.getByRole('heading', { name: 'Become an operator' })).toBeVisible();
  const password = invitation.getByLabel('Password', { exact: true });
  for (const [typed, said] of [
    ['weakpassword1', 'Password needs an uppercase letter.'],
    ['short', 'Password needs at least 8 characters, an uppercase letter and a number.'],
  ] as const) {
    await password.fill(typed);
    await invitation.getByRole('button', { name: 'Set password and open the console' }).click();
    await expect(invitation.getByText(said, { exact: true })).toBeVisible();
    await expect(invitation.getByText(VALIDATION_MESSAGES.signUpPassword)).toHaveCount(0);
  }
  await invited.close();
});
