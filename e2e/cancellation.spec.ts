import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { createMember } from './member';
import { becomeOperator } from './operator';

// The cancellation flow in Chromium (decision 052): one member cancels from Settings, gives "Not
// trading now" and takes a 2-month pause; another gives "Switching" and cancels at the period's
// end; the operator's console lists both reasons with the pause, and the member's page shows it.

const OPERATOR = 'ops-retention@example.com';

async function openCancelFlow(page: Page) {
  await page.goto('/dashboard/settings?section=subscription');
  const subscription = page.getByRole('region', { name: 'Subscription' });
  await subscription.getByRole('button', { name: 'Cancel subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'Why are you leaving?' });
  await expect(dialog).toBeVisible();
  return dialog;
}

test('a member pauses for 2 months instead of cancelling, another cancels at period end, and the console shows both', async ({ page, browser }) => {
  test.slow();
  const pausing = await browser.newContext();
  const pausingPage = await pausing.newPage();
  const { email: pausedEmail } = await createMember(pausingPage);

  let dialog = await openCancelFlow(pausingPage);
  await dialog.getByLabel('Not trading now').check();
  await dialog.getByLabel('Anything else? (optional)').fill('Back after the summer.');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  const offer = pausingPage.getByRole('dialog', { name: 'Before you go' });
  await offer.getByLabel('2 months').check();
  await offer.getByRole('button', { name: 'Pause for 2 months' }).click();
  await expect(pausingPage.getByText(/^Your plan is paused: access stays until \d{4}-\d{2}-\d{2}, nothing is charged until \d{4}-\d{2}-\d{2}/)).toBeVisible();
  // asked again: the pause is running, so the pause is not offered twice
  dialog = await openCancelFlow(pausingPage);
  await dialog.getByLabel('Not trading now').check();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(pausingPage.getByRole('dialog', { name: 'Cancel subscription' }).getByRole('button', { name: /^Pause/ })).toHaveCount(0);
  await pausing.close();

  const leaving = await browser.newContext();
  const leavingPage = await leaving.newPage();
  const { email: leftEmail } = await createMember(leavingPage);
  dialog = await openCancelFlow(leavingPage);
  await dialog.getByLabel('Switching to another service').check();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await leavingPage.getByRole('button', { name: 'Cancel at period end' }).click();
  await expect(leavingPage.getByText(/^Your plan is canceled: you keep access until \d{4}-\d{2}-\d{2}/)).toBeVisible();
  // the card says the plan ends and no longer offers to cancel
  const subscription = leavingPage.getByRole('region', { name: 'Subscription' });
  await expect(subscription.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);
  await leaving.close();

  await becomeOperator(page, OPERATOR);
  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Cancellations' }).click();
  await expect(page.getByRole('heading', { name: 'Cancellations', level: 1 })).toBeVisible();
  const list = page.getByRole('table', { name: 'Cancellations', exact: true });
  const pausedRow = list.getByRole('row').filter({ hasText: pausedEmail });
  await expect(pausedRow).toContainText('Not trading now');
  await expect(pausedRow).toContainText('Back after the summer.');
  await expect(pausedRow).toContainText(/Paused 2 months, resumes/);
  const leftRow = list.getByRole('row').filter({ hasText: leftEmail });
  await expect(leftRow).toContainText('Switching to another service');
  await expect(leftRow).toContainText('Canceled at period end');
  const byReason = page.getByRole('table', { name: 'Cancellations by reason' });
  // the count per reason: "Not trading now" has at least this pause in its Paused column
  await expect(byReason.getByRole('row').filter({ hasText: 'Not trading now' }).getByRole('cell').nth(3)).not.toHaveText('0');
  await expect(page.getByTestId('paused-now')).toHaveText(/^\d+$/);

  // the member's own page shows the feedback too
  await pausedRow.getByRole('link', { name: pausedEmail }).click();
  await expect(page.getByRole('heading', { name: pausedEmail })).toBeVisible();
  const feedback = page.getByRole('region', { name: 'Cancellation feedback' }).or(page.getByLabel('Cancellation feedback'));
  await expect(feedback.first()).toContainText('Not trading now');
  await expect(page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Sandbox', exact: true }) })).toContainText('collection paused');
});

test('an operator changes the offer of a reason in the console', async ({ page }) => {
  await becomeOperator(page, 'ops-retention-offers@example.com');
  await page.goto('/admin/retention');
  const technical = page.getByRole('group', { name: 'Technical problems' });
  await technical.getByLabel('Offer').selectOption('pause');
  await technical.getByLabel('Up to months').selectOption('1');
  await page.getByRole('button', { name: 'Save offers' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Offers saved' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('group', { name: 'Technical problems' }).getByLabel('Offer')).toHaveValue('pause');
  // put it back: the other journeys expect no offer there
  await page.getByRole('group', { name: 'Technical problems' }).getByLabel('Offer').selectOption('none');
  await page.getByRole('button', { name: 'Save offers' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Offers saved' })).toBeVisible();
});
