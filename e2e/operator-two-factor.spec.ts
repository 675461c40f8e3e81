import { expect, test } from './test';
import { totpCode } from '../src/server/test-support/totp';
import { TEST_PASSWORD, signUp } from './member';
import { becomeOperator } from './operator';

// Operators are proven, not named: the address in ADMIN_EMAILS opens nothing until its owner has
// confirmed it, and (OPERATOR_REQUIRE_2FA, playwright.config.ts) every sign-in to the console
// passes a code from the authenticator app enrolled on the way in.

const OPERATOR = 'ops-2fa@example.com';
// named in ADMIN_EMAILS, and taken by a stranger before its owner signs up
const SQUATTED = 'ops-squatted@example.com';

test('an operator enrolled in two-factor signs in again with password and code and reaches the console', async ({ page }) => {
  test.slow();
  const { totpSecret } = await becomeOperator(page, OPERATOR);

  await page.getByRole('link', { name: 'Member area' }).click();
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await page.context().clearCookies();

  await page.goto(`/auth?redirect=${encodeURIComponent('/admin')}`);
  await page.getByLabel('Email', { exact: true }).fill(OPERATOR);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  // the password alone is not a sign-in
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  expect(await (await page.request.get('/api/auth/get-session')).json()).toBeNull();

  await page.getByLabel('Authentication code').fill('000000' === totpCode(totpSecret) ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await expect(page.getByText('That code is not valid.')).toBeVisible();

  await page.getByLabel('Authentication code').fill(totpCode(totpSecret));
  await page.getByRole('button', { name: 'Verify', exact: true }).click();
  await page.waitForURL('**/admin');
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
});

test('a stranger who signs up with an operator address meets the confirmation gate and reaches nothing', async ({ page }) => {
  await signUp(page, SQUATTED);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Confirm your e-mail to open the console' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Operator console' })).toHaveCount(0);
  expect((await page.request.get('/api/admin/overview')).status()).toBe(403);
});
