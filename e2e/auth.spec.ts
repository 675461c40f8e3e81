import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { TEST_PASSWORD, linkInMail, mailboxPathFor, readLatestMail, signInViaUi, signUpViaUi, uniqueEmail } from './fixtures';
import { signUp } from './member';

const NEW_PASSWORD = 'Brand-New-Pass1';

/** Signs out with the marketing header's 'Sign Out' (which reloads the page signed out). */
async function signOutFromHeader(page: Page) {
  await page.goto('/');
  // The state clears before the reload does: wait for the reload, or the next goto races it.
  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: 'Sign Out' }).first().click();
  await reloaded;
  await expect(page.getByRole('button', { name: 'Log In' }).or(page.getByRole('link', { name: 'Log In' })).first()).toBeVisible();
  const session = await page.request.get('/api/auth/get-session');
  expect(await session.json()).toBeNull();
}

test('sign up, sign out, sign in', async ({ page }) => {
  // A password hash each for sign-up and sign-in, and a page load at every step: on a busy 2-core
  // machine it needs the room of a slow test (every step still waits on what it shows).
  test.slow();
  const email = uniqueEmail('journey');

  await signUpViaUi(page, email);
  // a fresh account has no premium access
  await expect(page).toHaveURL(/\/premium-access-required$/);

  await signOutFromHeader(page);

  await signInViaUi(page, email);
  await expect(page).toHaveURL(/\/premium-access-required$/);
  await signOutFromHeader(page);
});

// Its own test, on an account made through the API, so that it runs beside the sign-up journey
// above rather than after it in one long test.
test('reset the password by mail, sign in with the new one', async ({ page }) => {
  // Three password hashes (reset, a refused and an accepted sign-in) and a dozen page loads.
  test.slow();
  const { email } = await signUp(page);
  // signed out, as someone who forgot their password is
  await page.context().clearCookies();

  // forgot password
  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  await expect(page.getByText('The link expires in 10 minutes.', { exact: false }).first()).toBeVisible();

  // the mail, through the API and on the sandbox mailbox page
  const mail = await readLatestMail(page.request, email, { subject: 'Reset your' });
  const link = linkInMail(mail, '/reset-password');
  expect(new URL(link).searchParams.get('token')).toBeTruthy();

  await page.goto(`/sandbox/mailbox?to=${encodeURIComponent(email)}`);
  const card = page.getByRole('article', { name: mail.subject }).filter({ hasText: email }).first();
  await expect(card).toBeVisible();
  await expect(card.frameLocator('iframe').getByText('Reset password')).toBeVisible();
  await card.getByRole('link', { name: link }).click();

  // set the new password: signed in and on to the dashboard, which sends a non-member on
  await expect(page).toHaveURL(/\/reset-password\?token=/);
  await page.getByLabel('New Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirm Password', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Update Password' }).click();
  await expect(page.getByRole('heading', { name: 'Password Updated' })).toBeVisible();
  await expect(page).toHaveURL(/\/premium-access-required$/);
  const session = await (await page.request.get('/api/auth/get-session')).json();
  expect(session.user.email).toBe(email);

  // the link is used up
  await page.goto(link);
  await expect(page.getByText('Invalid Reset Link')).toBeVisible();
  await expect(page).toHaveURL(/\/forgot-password$/);

  // the old password no longer works, the new one does
  await signOutFromHeader(page);
  await page.goto('/auth');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByTestId('auth-form-error').getByText('Invalid Credentials')).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);

  await signInViaUi(page, email, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/premium-access-required$/);
});

test('an existing account on sign-up switches the form to sign-in', async ({ page }) => {
  const email = uniqueEmail('twice');
  await signUpViaUi(page, email);
  await signOutFromHeader(page);

  await page.goto(`/auth?email=${encodeURIComponent(email)}`);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(email);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await expect(page.getByTestId('auth-form-error').getByText('User Already Exists')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  // the password is still there: one click signs in
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/premium-access-required$/);
});

test('a signed-in visitor is sent on from /auth at once', async ({ page }) => {
  await signUpViaUi(page, uniqueEmail('already'));
  await page.goto('/auth?redirect=%2Feu');
  await expect(page).toHaveURL(/\/premium-access-required$/);
});

test('a reset link without a token shows Invalid Reset Link and goes to /forgot-password', async ({ page }) => {
  await page.goto('/reset-password');
  await expect(page.getByText('Invalid Reset Link')).toBeVisible();
  await expect(page).toHaveURL(/\/forgot-password$/);
});

test('asking for a reset of an unknown address looks the same and sends nothing', async ({ page }) => {
  const email = uniqueEmail('nobody');
  await page.goto('/forgot-password');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
  const { mails } = (await (await page.request.get(mailboxPathFor(email))).json()) as { mails: { to: string }[] };
  expect(mails.filter((mail) => mail.to === email)).toEqual([]);
});

test('the session cookie is httpOnly and SameSite=Lax', async ({ page, context }) => {
  await signUpViaUi(page, uniqueEmail('cookie'));
  const cookie = (await context.cookies()).find((candidate) => candidate.name.endsWith('session_token'));
  expect(cookie).toBeDefined();
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe('Lax');
  expect(await page.evaluate(() => document.cookie)).not.toContain('session_token');
});
