import { expect, test } from './test';
import { createMember, uniqueEmail } from './member';
import { becomeOperator, searchMembers } from './operator';

// Support in one action, in Chromium: an operator opens a paying member's page, adds 7 free days
// (the plan's access runs a week longer, at no charge), then bans the member (access ends, the
// subscription is canceled at the sandbox provider) and the member's next checkout is refused.

const OPERATOR = 'ops-support@example.com';

test('an operator adds 7 free days to a member, then bans them, from the member page', async ({ page, browser }) => {
  test.slow();
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  const { email } = await createMember(memberPage, uniqueEmail('support-member'));

  await becomeOperator(page, OPERATOR);
  await searchMembers(page, email);
  await page.getByRole('row').filter({ hasText: email }).getByRole('link', { name: email }).click();
  await expect(page.getByRole('heading', { name: email })).toBeVisible();
  // the subscription's row: the one naming its provider
  const subscription = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'Sandbox', exact: true }) });
  await expect(subscription).toContainText('Active');

  await page.getByRole('button', { name: 'Add free days' }).click();
  const freeDays = page.getByRole('dialog', { name: 'Add free days' });
  await freeDays.getByLabel('Free days').fill('7');
  await freeDays.getByRole('button', { name: 'Add days' }).click();
  await expect(freeDays.getByRole('status')).toContainText(/^Added 7 free days: access runs until \d{4}-\d{2}-\d{2} and the next charge is then\.$/);
  await freeDays.getByRole('button', { name: 'Close', exact: true }).first().click();
  // the provider now counts the week as free time before the next charge
  await expect(subscription).toContainText('Free time before the next charge');
  // and the access history tells of the longer access (TradingView's expiry follows it)
  await expect(page.getByRole('cell', { name: /^Renewed/ })).toHaveCount(1);

  await page.getByRole('button', { name: 'Ban member' }).click();
  const ban = page.getByRole('dialog', { name: 'Ban this member' });
  await ban.getByLabel('Reason (kept in the audit log)').fill('shared the account');
  await ban.getByRole('button', { name: 'Ban member' }).click();
  await expect(ban.getByRole('status')).toHaveText('Banned: access ended now, 1 subscription canceled at the provider. The account can no longer buy.');
  await ban.getByRole('button', { name: 'Close', exact: true }).first().click();
  await expect(page.getByText(/Banned .* by ops-support@example\.com · shared the account/)).toBeVisible();
  await expect(subscription).toContainText('Canceled · no access · banned');
  await expect(page.getByRole('button', { name: 'Ban member' })).toBeDisabled();

  // the member has lost access and cannot buy again
  await expect.poll(async () => ((await (await memberPage.request.get('/api/access')).json()) as { hasAccess?: boolean }).hasAccess).toBe(false);
  const checkout = await memberPage.request.post('/api/create-checkout', { data: { planType: 'monthly', customerEmail: email, fbc: null, fbp: null, userAgent: null, originPage: '/' } });
  expect(checkout.status()).toBe(403);
  expect(((await checkout.json()) as { error: { message: string } }).error.message).toBe('This account can no longer buy from this shop. If you think this is a mistake, please contact support.');
  await memberContext.close();
});
