import { expect, test } from '@playwright/test';
import { actAsNewVisitor } from './fixtures';
import { becomeOperator } from './operator';

// The storefront is the vendor's (issue 43): an operator renames the Monthly plan and raises its
// regular price in the console, sees the card change in the live preview before saving, saves, and
// a new visitor's landing page shows the new card. On the server-wide server, whose landing page
// no other journey reads.
const OPERATOR = 'ops-catalogue@example.com';
const PRICING_SECTION = { timeout: 60_000 };

test('an operator edits a plan in the console: the preview and then the landing card change', async ({ browser, page }) => {
  test.slow();
  await becomeOperator(page, OPERATOR);
  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Plans & prices' }).click();
  await expect(page.getByRole('heading', { name: 'Plans, prices and sales', level: 1 })).toBeVisible();

  const preview = page.getByLabel('Live preview');
  await expect(preview.getByRole('article', { name: 'Preview Monthly' })).toBeVisible();
  await page.getByLabel('Name of monthly').fill('Monthly Plus');
  await page.getByLabel('Price of monthly').fill('40');
  // the draft, before it is saved: the sale's $36 against the new regular $40
  const card = preview.getByRole('article', { name: 'Preview Monthly Plus' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('$40');
  await expect(card).toContainText('Save 10%');

  await page.getByRole('form', { name: 'Plan monthly' }).getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('monthly saved.')).toBeVisible();

  const visitor = await browser.newContext();
  const shop = await visitor.newPage();
  await actAsNewVisitor(shop);
  await shop.goto('/');
  const monthly = shop.getByRole('article', { name: 'Monthly Plus' });
  await expect(monthly).toBeVisible(PRICING_SECTION);
  await expect(monthly.getByLabel('was $40')).toBeVisible();
  await expect(monthly.getByText('Save 10%')).toBeVisible();
  await visitor.close();
});
