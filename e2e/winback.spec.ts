import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { createMember } from './member';
import { becomeOperator } from './operator';

// Keeping members (decision 056): the operator makes a code for returning members only and sets
// the mails on the Cancellations page: the Discord reminder off, the win-back mail on with that
// code after 7 days. A day count out of range is refused as the server words it, and what was
// saved is what the page shows after a reload. The server is shared with the other journeys, so
// the test puts the switches back as it found them.
const OPERATOR = 'ops-winback@example.com';
// the second journey's operator: each journey signs its operator up
const CODE_OPERATOR = 'ops-winback-code@example.com';

// Both journeys set the shop's one win-back mail (its switch, code and days): one after the other,
// in one browser, the second still running when the first fails.
test.describe.configure({ mode: 'default' });

/** The operator (signed in on `page`) creates a 30 % code for returning members only; returns it. */
async function createWinbackCode(page: Page): Promise<string> {
  const code = `BACK-${randomUUID().slice(0, 6).toUpperCase()}`;
  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Promotion codes' }).click();
  await page.getByRole('textbox', { name: 'Code', exact: true }).fill(code);
  await page.getByLabel('Percent (1–100)').fill('30');
  await page.getByLabel('Returning members only (access ended: win-back)').check();
  await page.getByRole('button', { name: 'Create code' }).click();
  await expect(page.getByRole('status')).toHaveText(`${code} created and mirrored at sandbox.`);
  await expect(page.getByRole('table', { name: 'Promotion codes' }).getByRole('row', { name: new RegExp(code) })).toContainText('All · returning members');
  return code;
}

/** The operator (signed in on `page`) turns the win-back mail on with `code` after `days`, or off (null). */
async function setWinbackMail(page: Page, mail: { code: string; days: number } | null): Promise<void> {
  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Cancellations' }).click();
  await expect(page.getByRole('heading', { name: 'Mails', exact: true })).toBeVisible();
  if (mail) {
    await page.getByLabel('Win-back offer').check();
    await page.getByLabel('Win-back code').selectOption(mail.code);
    await page.getByLabel('Win-back: days after access ends').fill(String(mail.days));
  } else {
    await page.getByLabel('Win-back offer').uncheck();
  }
  await page.getByRole('button', { name: 'Save mails' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Mail settings saved.' })).toBeVisible();
}

test('an operator creates a win-back code and sets the mail switches', async ({ page }) => {
  test.slow();
  await becomeOperator(page, OPERATOR);
  const code = await createWinbackCode(page);
  const nav = page.getByRole('navigation', { name: 'Operator console' });

  await nav.getByRole('link', { name: 'Cancellations' }).click();
  await expect(page.getByRole('heading', { name: 'Mails', exact: true })).toBeVisible();
  await expect(page.getByLabel('Checkout recovery')).toBeChecked();
  await page.getByLabel('Reminder: link Discord').uncheck();
  await page.getByLabel('Win-back offer').check();
  await page.getByLabel('Win-back code').selectOption(code);
  await page.getByLabel('Win-back: days after access ends').fill('0');
  await page.getByRole('button', { name: 'Save mails' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Days after access ends' })).toHaveText('Days after access ends must be a whole number from 1 to 365.');

  await page.getByLabel('Win-back: days after access ends').fill('7');
  await page.getByRole('button', { name: 'Save mails' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Mail settings saved.' })).toBeVisible();

  await page.reload();
  await expect(page.getByLabel('Reminder: link Discord')).not.toBeChecked();
  await expect(page.getByLabel('Win-back offer')).toBeChecked();
  await expect(page.getByLabel('Win-back code')).toHaveValue(code);
  await expect(page.getByLabel('Win-back: days after access ends')).toHaveValue('7');

  await page.getByLabel('Reminder: link Discord').check();
  await page.getByLabel('Win-back offer').uncheck();
  await page.getByRole('button', { name: 'Save mails' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Mail settings saved.' })).toBeVisible();
});

// The whole win-back as a member lives it: a member who still has access is told the code is for
// returning members only (by the checkout request: the landing page sends members to the
// dashboard). The plan is canceled in the sandbox portal and its period ended there; the operator
// sends the win-back mail a day after access ends with the code, and runs the member mails a day
// ahead on the Sandbox page, as a demo cannot wait that day. The member finds the mail in the
// sandbox mailbox, follows its link and pays with the code, and the order shows the discount.
test('a member whose access ended gets the win-back mail a day later and pays with its code', async ({ page, browser }) => {
  test.slow();
  await becomeOperator(page, CODE_OPERATOR);
  const code = await createWinbackCode(page);

  const context = await browser.newContext();
  const member = await context.newPage();
  const { email } = await createMember(member);
  // a member with access who follows the link lands on the dashboard (the landing page sends members
  // there), so the refusal is checked on the checkout request the pricing cards make
  const refused = await member.request.post('/api/create-checkout', {
    data: { planType: 'lifetime', customerEmail: email, promotionCode: code, fbc: null, fbp: null, userAgent: null, originPage: '/' },
  });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(`The code ${code} is for returning members only: it works once your access has ended.`);
  await member.goto(`/?code=${code}`);
  await expect(member).toHaveURL(/\/dashboard/);

  // the access ends: canceled in the sandbox portal, then its period runs out there
  await member.goto('/dashboard/settings?section=subscription');
  await member.getByRole('button', { name: 'Manage Subscription' }).click();
  await member.waitForURL(/\/sandbox\/portal\//);
  await member.getByRole('button', { name: 'Cancel plan' }).click();
  await member.getByRole('dialog').getByRole('button', { name: 'Cancel plan' }).click();
  await expect(member.getByRole('button', { name: 'Resume plan' })).toBeVisible();
  await member.getByRole('button', { name: 'Simulate period end' }).click();
  await expect.poll(async () => ((await (await member.request.get('/api/access')).json()) as { hasAccess: boolean }).hasAccess, { timeout: 30_000 }).toBe(false);

  // a day after the access ended, with this code; the Sandbox page runs the mails of a day later now
  await setWinbackMail(page, { code, days: 1 });
  try {
    await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Sandbox' }).click();
    await page.getByRole('spinbutton', { name: 'Days ahead' }).fill('1');
    await page.getByRole('button', { name: 'Run member mails' }).click();
    // other journeys' members may churn on this server too: at least this member's mail
    await expect(page.getByRole('status').filter({ hasText: 'written, as of' })).toHaveText(/^[1-9]\d* win-back mails? and \d+ set-up reminders? written, as of /);

    await member.goto(`/sandbox/mailbox?to=${encodeURIComponent(email)}`);
    const mail = member.getByRole('article', { name: 'Come back to Candlewise: 30% off on the first payment' }).filter({ hasText: email });
    await expect(mail).toHaveCount(1);
    await expect(mail.frameLocator('iframe').getByText(`the code ${code} gives you 30% off on the first payment`)).toBeVisible();
    await mail.getByRole('link', { name: new RegExp(`/\\?code=${code}$`) }).click();
  } finally {
    await setWinbackMail(page, null);
  }

  await expect(member).toHaveURL(new RegExp(`/\\?code=${code}$`));
  await member.getByRole('article', { name: 'Monthly' }).getByRole('button').click();
  await expect(member).toHaveURL(/\/sandbox\/checkout\//);
  await expect(member.getByTestId('checkout-discount')).toHaveText('−$10.80');
  await expect(member.getByTestId('due-today')).toHaveText('$25.20');
  await member.getByLabel('Card number').pressSequentially('4242424242424242');
  await member.getByLabel('Expiry').pressSequentially('1239');
  await member.getByLabel('CVC').fill('123');
  await member.getByLabel('Name on card').fill('Returning Member');
  await member.getByRole('button', { name: /^Pay \$25\.20$/ }).click();
  await expect(member).toHaveURL(/\/payment-success\?session_id=/);
  const summary = member.getByRole('region', { name: 'Order Summary' });
  await expect(summary.getByText(`Promotion code ${code}`)).toBeVisible();
  await expect(summary.getByText('Amount paid').locator('xpath=following-sibling::dd')).toHaveText('$25.20');
  await context.close();
});
