// The operator console's TradingView page: a grant that fails in a simulated TradingView
// outage shows with its error, and is granted once the outage ends and the operator retries.
import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { TEST_PASSWORD, createMember, uniqueEmail } from './member';
import { sameOrigin } from './fixtures';
import { becomeOperator } from './operator';

const OPERATOR = 'ops-tradingview@example.com';
const nav = (page: Page) => page.getByRole('navigation', { name: 'Operator console' });
// Sign-ups are limited per client address: these browsers are visitors of their own (RFC 5737
// addresses, as e2e/fixtures.ts does), so this spec leaves the other specs' budget alone.
test.use({ extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.201' } });

test('an operator sees a grant fail in a TradingView outage, ends the outage, retries, and sees it granted', async ({ page, browser }) => {
  test.slow();
  await becomeOperator(page, OPERATOR);
  await nav(page).getByRole('link', { name: 'Sandbox' }).click();
  await page.getByRole('button', { name: 'Simulate TradingView outage' }).click();
  await expect(page.getByText('Outage in progress')).toBeVisible();

  // A buyer pays and sets a username in a browser of their own.
  const buyerContext = await browser.newContext({ extraHTTPHeaders: { 'x-forwarded-for': '198.51.100.202' } });
  const buyer = await buyerContext.newPage();
  const { email } = await createMember(buyer, uniqueEmail('outage-buyer'));
  const activation = await buyer.request.post('/api/tradingview/activate', { data: { tv_username: 'outage_trader' } });
  expect(activation.status(), await activation.text()).toBe(200);
  await buyerContext.close();

  await nav(page).getByRole('link', { name: 'TradingView' }).click();
  const waiting = page.getByRole('table', { name: 'Waiting grants' }).getByRole('row').filter({ hasText: email });
  await expect(waiting).toContainText('Failed');
  await expect(waiting).toContainText("network: TradingView's access endpoints are down (simulated outage)");
  await expect(page.getByText('Not working', { exact: true })).toBeVisible();

  await nav(page).getByRole('link', { name: 'Sandbox' }).click();
  await page.getByRole('button', { name: 'End outage' }).click();
  await expect(page.getByRole('button', { name: 'Simulate TradingView outage' })).toBeVisible();

  await nav(page).getByRole('link', { name: 'TradingView' }).click();
  await expect(page.getByText('Valid', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Retry all failed' }).click();
  const done = page.getByRole('table', { name: 'Recently completed grants' }).getByRole('row').filter({ hasText: email });
  await expect(done).toContainText('Granted');
  await expect(done).toContainText('outage_trader');
  await expect(page.getByRole('table', { name: 'Waiting grants' }).getByRole('row').filter({ hasText: email })).toHaveCount(0);
});

test('the console is not there for members', async ({ page }) => {
  const member = await page.request.post('/api/auth/sign-up/email', { data: { email: uniqueEmail('curious'), password: TEST_PASSWORD, name: 'curious' }, headers: sameOrigin() });
  expect(member.status()).toBe(200);
  await page.goto('/admin/tradingview');
  await expect(page.getByRole('navigation', { name: 'Operator console' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
});
