import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { actAsNewVisitor, mailboxPathFor, readLatestMail, sameOrigin, uniqueEmail } from './fixtures';
import { SUCCEEDING_CARD } from './member';
import { becomeOperator } from './operator';
import { DEFAULT_BILLING_COUNTRY } from '../src/shared/vat';

// Issue 47's funnel and checkout recovery in Chromium, in the sandbox: an abandoned checkout gets
// exactly one recovery mail whose link reopens it (and, used after the purchase, says so); after
// 5 landing visits and 2 purchases the console's Funnel page and its API count at least 5 visits,
// 2 checkouts started and 2 paid.

const OPERATOR = 'ops-funnel@example.com';
// A person's browser: the headless browser's own user agent is, rightly, not counted as a visitor.
const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

type Funnel = { visits: number; checkoutsStarted: number; paid: number; accountsCreated: number; accessGranted: number };

async function startCheckout(page: Page, email: string): Promise<{ url: string; sessionId: string }> {
  const response = await page.request.post('/api/create-checkout', {
    data: { planType: 'monthly', customerEmail: email, fbc: null, fbp: null, userAgent: null, originPage: '/' },
    headers: sameOrigin(),
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { url: string; sessionId: string };
}

async function pay(page: Page, sessionId: string): Promise<void> {
  const paid = await page.request.post(`/api/sandbox/checkout/${encodeURIComponent(sessionId)}/pay`, {
    data: { email: null, cardNumber: SUCCEEDING_CARD, expiry: '12 / 34', cvc: '123', name: 'Funnel Buyer', billingCountry: DEFAULT_BILLING_COUNTRY },
    headers: sameOrigin(),
  });
  expect(paid.status(), await paid.text()).toBe(200);
}

async function recoveryMailsTo(page: Page, email: string): Promise<number> {
  const { mails } = (await (await page.request.get(mailboxPathFor(email))).json()) as { mails: { to: string; subject: string }[] };
  return mails.filter((mail) => mail.to === email && mail.subject.includes('checkout is waiting')).length;
}

test('an abandoned checkout gets exactly one recovery mail whose link resumes it; after the purchase the link says so', async ({ page }) => {
  await actAsNewVisitor(page);
  const email = uniqueEmail('abandoned');
  const { sessionId } = await startCheckout(page, email);
  // the buyer leaves: the sandbox expires the session as Stripe does after its lifetime
  const expired = await page.request.post(`/api/sandbox/checkout/${sessionId}/expire`, { data: {}, headers: sameOrigin() });
  expect(expired.status(), await expired.text()).toBe(200);

  const mail = await readLatestMail(page.request, email, { subject: 'checkout is waiting' });
  const links = (mail.text.match(/https?:\/\/\S+/g) ?? []).map((candidate) => new URL(candidate));
  expect(links.some((url) => url.pathname.endsWith('/unsubscribe'))).toBe(true);
  const link = links.find((url) => /^\/checkout\/recover\/[\w-]{43}$/.test(url.pathname))!.href;

  await page.goto(link);
  await expect(page).toHaveURL(/\/sandbox\/checkout\/cs_/);
  expect(page.url()).not.toContain(sessionId);
  await expect(page.getByText('Subscribe to Candlewise Monthly plan')).toBeVisible();
  await page.getByLabel('Card number').pressSequentially('4242 4242 4242 4242');
  await page.getByLabel('Expiry').pressSequentially('1239');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Name on card').fill('Ada Buyer');
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/payment-success\?session_id=cs_/);

  expect(await recoveryMailsTo(page, email)).toBe(1);
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'You already completed this purchase' })).toBeVisible();
});

test("after 5 landing visits and 2 purchases the console's Funnel counts at least 5 visits, 2 checkouts started and 2 paid", async ({ page, browser }) => {
  test.slow();
  await becomeOperator(page, OPERATOR);
  const before = (await (await page.request.get('/api/admin/funnel?days=30')).json()) as Funnel;

  const visitor = await browser.newContext({ userAgent: PERSON });
  const landing = await visitor.newPage();
  for (let i = 0; i < 5; i += 1) {
    await actAsNewVisitor(landing);
    await landing.goto(i === 0 ? '/?utm_source=e2e-newsletter' : '/');
    await expect(landing.getByRole('article', { name: 'Monthly' })).toBeVisible();
  }
  for (const name of ['funnel-one', 'funnel-two']) {
    const { sessionId } = await startCheckout(landing, uniqueEmail(name));
    await pay(landing, sessionId);
  }
  await visitor.close();

  const after = (await (await page.request.get('/api/admin/funnel?days=30')).json()) as Funnel;
  expect(after.visits - before.visits).toBeGreaterThanOrEqual(5);
  expect(after.checkoutsStarted - before.checkoutsStarted).toBeGreaterThanOrEqual(2);
  expect(after.paid - before.paid).toBeGreaterThanOrEqual(2);

  await page.getByRole('navigation', { name: 'Operator console' }).getByRole('link', { name: 'Funnel' }).click();
  await expect(page.getByRole('heading', { name: 'Funnel', level: 1 })).toBeVisible();
  const steps = page.getByRole('list', { name: 'Funnel steps' });
  for (const [step, least] of [
    ['visits', before.visits + 5],
    ['checkoutsStarted', before.checkoutsStarted + 2],
    ['paid', before.paid + 2],
  ] as const) {
    const shown = Number(await steps.locator(`[data-step="${step}"] p.text-2xl`).innerText());
    expect(shown, step).toBeGreaterThanOrEqual(least);
  }
  await expect(page.getByRole('img', { name: 'Funnel steps per day, last 30 days' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Funnel steps per day' })).toBeVisible();
  // the tagged visit and the checkouts it led to, by source
  const utm = page.getByRole('table', { name: 'UTM source' });
  await expect(utm.getByRole('row').filter({ hasText: 'e2e-newsletter' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Price list' })).toBeVisible();
});
