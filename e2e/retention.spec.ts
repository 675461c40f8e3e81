import { readFile } from 'node:fs/promises';
import { expect, test } from './test';
import { createMember, uniqueEmail } from './member';
import { becomeOperator } from './operator';

// Issue 47's numbers in Chromium, in the sandbox: a member who paid this month is in this month's
// cohort on the console's Retention page, whose charts have their tables under them; the Payments
// page downloads the orders as CSV with that member's order in it, and the Audit log says who
// downloaded it.

const OPERATOR = 'ops-numbers@example.com';

test('the Retention page shows this month’s cohort under its charts; the orders download as CSV, audited', async ({ page, browser }) => {
  test.slow();
  const buyer = await browser.newContext();
  const memberPage = await buyer.newPage();
  const { email } = await createMember(memberPage, uniqueEmail('retention'));
  await buyer.close();

  await becomeOperator(page, OPERATOR);
  const nav = page.getByRole('navigation', { name: 'Operator console' });
  await nav.getByRole('link', { name: 'Retention' }).click();
  await expect(page.getByRole('heading', { name: 'Retention', level: 1 })).toBeVisible();
  const month = new Date().toISOString().slice(0, 7);
  const cohorts = page.getByRole('table', { name: 'Share of each cohort with access after 1, 2, 3… months' });
  await expect(cohorts.locator(`[data-cohort="${month}"]`)).toBeVisible();
  expect(Number(await cohorts.locator(`[data-cohort="${month}"] td`).nth(1).innerText())).toBeGreaterThanOrEqual(1);
  await expect(page.getByRole('img', { name: 'Members lost per month, by kind' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Churn per month' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'MRR movement in USD' }).getByRole('row').filter({ hasText: month })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download churn reasons (CSV)' })).toBeVisible();

  await nav.getByRole('link', { name: 'Payments' }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download orders (CSV)' }).click()]);
  expect(download.suggestedFilename()).toBe('orders.csv');
  const csv = await readFile((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('id,created_at,email,plan,amount,tax,discount,currency,status,promotion_code,provider_payment_id');
  expect(csv).toContain(`,${email},monthly,`);

  await nav.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByText(`${OPERATOR} downloaded the orders as CSV`)).toBeVisible();
});
