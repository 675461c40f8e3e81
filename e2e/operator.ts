import { expect, type Page } from '@playwright/test';
import { totpCode } from '../src/server/test-support/totp';
import { actAsNewVisitor, linkInMail, readLatestMail } from './fixtures';
import { TEST_PASSWORD, signUp } from './member';

/**
 * An operator named by ADMIN_EMAILS (playwright.config.ts) takes up the console the way a vendor
 * does: signs up, confirms the address from the mailed link the console offers, then enrols an
 * authenticator app (OPERATOR_REQUIRE_2FA is on for these journeys) and lands on the Overview.
 * Returns the authenticator's secret, as the phone would keep it.
 */
export async function becomeOperator(page: Page, email: string): Promise<{ totpSecret: string }> {
  // each operator from an address of its own: the console's journeys together outgrow one
  // address's limit on confirmation mails
  await actAsNewVisitor(page);
  await signUp(page, email);
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Confirm your e-mail to open the console' })).toBeVisible();
  await page.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(page.getByRole('status')).toContainText(`We sent a link to ${email}`);
  const mail = await readLatestMail(page.request, email, { subject: 'Confirm your' });
  await page.goto(linkInMail(mail, '/api/auth/verify-email'));

  await expect(page.getByRole('heading', { name: 'Protect the console with two-factor authentication' })).toBeVisible();
  await page.getByLabel('Your password').fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Set up two-factor' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Backup codes' }).getByRole('listitem')).toHaveCount(10);
  const totpSecret = (await page.getByLabel('Setup key').innerText()).replace(/\s/g, '');
  await page.getByLabel('Authentication code').fill(totpCode(totpSecret));
  await page.getByRole('button', { name: 'Verify and open the console' }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  return { totpSecret };
}

/**
 * Searches the console's members for the one member `search` finds (an e-mail, a TradingView
 * username) and waits for that answer: until it comes, the list shown before the search stays,
 * dimmed and busy, and a click on its rows would land on a list about to be replaced.
 */
export async function searchMembers(page: Page, search: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Members' }).click();
  await page.getByLabel('Search members').fill(search);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText(/^1 in all ·/)).toBeVisible();
  await expect(page.getByRole('table')).toHaveAttribute('aria-busy', 'false');
}
