import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { becomeOperator } from './operator';

// Keeping members (decision 056): the operator makes a code for returning members only and sets
// the mails on the Cancellations page: the Discord reminder off, the win-back mail on with that
// code after 7 days. A day count out of range is refused as the server words it, and what was
// saved is what the page shows after a reload. The server is shared with the other journeys, so
// the test puts the switches back as it found them.
const OPERATOR = 'ops-winback@example.com';

test('an operator creates a win-back code and sets the mail switches', async ({ page }) => {
  test.slow();
  const code = `BACK-${randomUUID().slice(0, 6).toUpperCase()}`;
  await becomeOperator(page, OPERATOR);
  const nav = page.getByRole('navigation', { name: 'Operator console' });
  await nav.getByRole('link', { name: 'Promotion codes' }).click();
  await page.getByRole('textbox', { name: 'Code', exact: true }).fill(code);
  await page.getByLabel('Percent (1–100)').fill('30');
  await page.getByLabel('Returning members only (access ended: win-back)').check();
  await page.getByRole('button', { name: 'Create code' }).click();
  await expect(page.getByRole('status')).toHaveText(`${code} created and mirrored at sandbox.`);
  await expect(page.getByRole('table', { name: 'Promotion codes' }).getByRole('row', { name: new RegExp(code) })).toContainText('All · returning members');

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
