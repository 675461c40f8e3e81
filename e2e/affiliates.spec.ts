import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { actAsNewVisitor, sameOrigin, uniqueEmail } from './fixtures';
import { SUCCEEDING_CARD, signUp } from './member';
import { becomeOperator, searchMembers } from './operator';
import { DEFAULT_BILLING_COUNTRY } from '../src/shared/vat';

// The affiliate walk of issue 45 in Chromium: A joins on Refer & earn and gets a link; B opens
// it and buys Monthly ($36): A's page shows $10.80 pending (30 %); the operator refunds B's
// payment (the member page's ban with a refund, the sandbox's refund): A's $10.80 moves to
// reversed and the console flags A; A buying through the own link earns nothing.

const OPERATOR = 'ops-affiliates@example.com';

type Summary = { code: string; clicks: number; sales: number; commissions: { pending: number; approved: number; paid: number; reversed: number }; history: { status: string; reason: string | null }[] };

const summaryOf = async (page: Page) => (await (await page.request.get('/api/affiliate')).json()) as Summary;

/** A signed-in checkout of Monthly from this page's browser (its cookies, the referral one included), paid with the sandbox's page call. */
async function buyMonthly(page: Page, email: string): Promise<void> {
  const checkout = await page.request.post('/api/create-checkout', {
    data: { planType: 'monthly', customerEmail: email, fbc: null, fbp: null, userAgent: null, originPage: '/' },
    headers: sameOrigin(),
  });
  expect(checkout.status(), await checkout.text()).toBe(200);
  const { sessionId } = (await checkout.json()) as { sessionId: string };
  const paid = await page.request.post(`/api/sandbox/checkout/${encodeURIComponent(sessionId)}/pay`, {
    data: { email: null, cardNumber: SUCCEEDING_CARD, expiry: '12 / 34', cvc: '123', name: 'Test Buyer', billingCountry: DEFAULT_BILLING_COUNTRY },
    headers: sameOrigin(),
  });
  expect(paid.status(), await paid.text()).toBe(200);
}

test('A joins and shares a link; B buys Monthly through it; the refund reverses the commission; A buying through the own link earns nothing', async ({ page, browser }) => {
  test.slow();
  // A: signs up and joins from Refer & earn
  const affiliateContext = await browser.newContext();
  const a = await affiliateContext.newPage();
  await actAsNewVisitor(a);
  const aEmail = uniqueEmail('affiliate');
  await signUp(a, aEmail);
  await a.goto('/refer');
  await expect(a.getByRole('heading', { name: 'Refer & earn' })).toBeVisible();
  await expect(a.getByText(/You earn 30 % on every payment/)).toBeVisible();
  await a.getByRole('button', { name: 'Join the affiliate program' }).click();
  const link = a.getByTestId('affiliate-link');
  await expect(link).toHaveText(/\/\?ref=[A-Z0-9]+$/);
  const code = (await link.innerText()).split('?ref=')[1]!;

  // B: opens the link, then signs up and buys Monthly in the same browser
  const buyerContext = await browser.newContext();
  const b = await buyerContext.newPage();
  await actAsNewVisitor(b);
  await b.goto(`/?ref=${code}`);
  await expect(b.getByRole('article', { name: 'Monthly' })).toBeVisible();
  const bEmail = uniqueEmail('referred');
  await signUp(b, bEmail);
  await buyMonthly(b, bEmail);

  // A's page: one click, one sale, $10.80 pending
  await expect.poll(async () => (await summaryOf(a)).commissions.pending, { message: "A's pending commission" }).toBe(1080);
  await a.reload();
  await expect(a.getByTestId('affiliate-pending')).toHaveText('$10.80');
  await expect(a.getByTestId('affiliate-sales')).toHaveText('1');
  await expect(a.getByTestId('affiliate-clicks')).toHaveText('1');

  // the operator refunds B's payment from B's member page
  await becomeOperator(page, OPERATOR);
  await searchMembers(page, bEmail);
  await page.getByRole('row').filter({ hasText: bEmail }).getByRole('link', { name: bEmail }).click();
  await page.getByRole('button', { name: 'Ban member' }).click();
  const ban = page.getByRole('dialog', { name: 'Ban this member' });
  await ban.getByLabel('Refund the last payment').check();
  await ban.getByRole('button', { name: 'Ban member' }).click();
  await expect(ban.getByRole('status')).toContainText('Banned');
  await ban.getByRole('button', { name: 'Close', exact: true }).first().click();

  // A's commission moves to reversed
  await expect.poll(async () => (await summaryOf(a)).commissions, { message: "A's commissions after the refund" }).toEqual({ pending: 0, approved: 0, paid: 0, reversed: 1080 });
  await a.reload();
  await expect(a.getByTestId('affiliate-reversed')).toHaveText('$10.80');

  // the console lists A, flagged: their one referred buyer refunded
  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Affiliates' }).click();
  const row = page.getByRole('table', { name: 'Affiliates' }).getByRole('row', { name: new RegExp(code) });
  await expect(row).toContainText('flagged');

  // the terms give Lifetime a commission of its own; a rate above 100 % is refused with the reason
  await page.getByRole('combobox', { name: 'Lifetime commission', exact: true }).selectOption('percent');
  await page.getByRole('textbox', { name: 'Lifetime rate (%)', exact: true }).fill('150');
  await page.getByRole('button', { name: 'Save terms' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'A commission rate is between 0 % and 100 %.' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Lifetime commission', exact: true }).selectOption('fixed');
  await page.getByRole('textbox', { name: 'Lifetime amount', exact: true }).fill('50.00');
  await page.getByRole('button', { name: 'Save terms' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Terms saved.' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Lifetime amount', exact: true })).toHaveValue('50.00');

  // A buys through the own link: nothing earned, the history says why
  await a.goto(`/?ref=${code}`);
  await buyMonthly(a, aEmail);
  await expect.poll(async () => (await summaryOf(a)).history[0], { message: "A's own purchase" }).toEqual(expect.objectContaining({ status: 'refused', reason: 'own_account' }));
  expect((await summaryOf(a)).commissions).toEqual({ pending: 0, approved: 0, paid: 0, reversed: 1080 });

  await affiliateContext.close();
  await buyerContext.close();
});
