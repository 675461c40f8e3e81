import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { isMailPreviewScriptBlock } from './fixtures';
import { createMember, signUp } from './member';

// Every route of the app, visited the way a visitor, a signed-in user without access and a paying
// member reach it, with the browser console watched: any error, warning or uncaught exception
// fails the test. Regression: every production page logged "No `HydrateFallback` element provided
// to render during initial hydration".

type Problem = { url: string; kind: string; text: string };

function watchConsole(page: Page): Problem[] {
  const problems: Problem[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    if (isMailPreviewScriptBlock(message)) return;
    // An unknown address answers 404 on purpose (#46) and Chromium reports that status of the page itself.
    if (message.text().includes('status of 404') && message.location().url === page.url()) return;
    problems.push({ url: page.url(), kind: message.type(), text: message.text() });
  });
  page.on('pageerror', (error) => problems.push({ url: page.url(), kind: 'pageerror', text: error.message }));
  return problems;
}

/** Opens a route and waits until the app has rendered it and its requests have settled. */
async function visit(page: Page, path: string, expectedPath: RegExp | string = path.split('?')[0]!) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await expect(page).toHaveURL(typeof expectedPath === 'string' ? new RegExp(`${expectedPath.replace(/[/?]/g, '\\$&')}(\\?|#|$)`) : expectedPath);
  // Something of the page is on screen: not a blank document or a spinner.
  await expect(page.locator('h1, h2').first()).toBeVisible();
}

test('public pages log nothing for a visitor', async ({ page }) => {
  // Many pages in one journey: give it the room of a slow test rather than racing the clock.
  test.slow();
  const problems = watchConsole(page);
  for (const path of ['/', '/eu', '/?from=eu', '/disclaimer', '/terms-of-service', '/privacy-policy', '/contact', '/contact?from=eu', '/no/such/page']) {
    await visit(page, path);
  }
  expect(problems).toEqual([]);
});

test('auth and payment pages log nothing for a visitor', async ({ page }) => {
  // Many pages in one journey: give it the room of a slow test rather than racing the clock.
  test.slow();
  const problems = watchConsole(page);
  for (const path of ['/auth', '/auth?redirect=/eu', '/auth?email=someone%40example.com', '/forgot-password']) {
    await visit(page, path);
  }
  // A reset link without its token is refused and sent on to /forgot-password.
  await visit(page, '/reset-password', '/forgot-password');
  await visit(page, '/payment-canceled');
  await visit(page, '/payment-canceled?from=/eu');
  await visit(page, '/payment-success');
  await visit(page, '/sandbox/mailbox');
  // Members-only pages send a visitor to sign in, quietly.
  await visit(page, '/dashboard/settings', '/auth');
  await visit(page, '/premium-access-required', /\/(auth|premium-access-required)/);
  expect(problems).toEqual([]);
});

test('a signed-in user without access sees the premium-required page with nothing logged', async ({ page }) => {
  // Many pages in one journey: give it the room of a slow test rather than racing the clock.
  test.slow();
  const problems = watchConsole(page);
  await signUp(page);
  await visit(page, '/premium-access-required');
  await visit(page, '/dashboard/guides', '/premium-access-required');
  await visit(page, '/');
  expect(problems).toEqual([]);
});

test('a paying member goes through checkout, payment success and every guide with nothing logged', async ({ page }) => {
  // Many pages in one journey: give it the room of a slow test rather than racing the clock.
  test.slow();
  const problems = watchConsole(page);
  // Buying walks the sandbox checkout page and /payment-success.
  await createMember(page, undefined, { throughCheckoutPage: true });
  await visit(page, page.url().replace(/^https?:\/\/[^/]+/, ''), '/payment-success');

  const guides = (await (await page.request.get('/api/content/guides')).json()) as { guides: { id: string; type: string }[] };
  const product = guides.guides.find((guide) => guide.type === 'product');
  expect(product, 'a product guide').toBeDefined();
  const productGuide = (await (await page.request.get(`/api/content/guides/${product!.id}`)).json()) as { features: { id: string }[] };

  await visit(page, '/dashboard', '/dashboard/guides');
  await visit(page, '/', '/dashboard/guides');
  for (const guide of guides.guides) {
    await visit(page, guide.type === 'product' ? `/dashboard/guides?product=${guide.id}` : `/dashboard/guides?guide=${guide.id}`, '/dashboard/guides');
  }
  await visit(page, `/dashboard/guides?product=${product!.id}&feature=${productGuide.features[0]!.id}`, '/dashboard/guides');
  expect(problems).toEqual([]);
});

test('a paying member opens strategies, Discord, every settings section and the billing portal with nothing logged', async ({ page }) => {
  // Many pages in one journey: give it the room of a slow test rather than racing the clock.
  test.slow();
  const problems = watchConsole(page);
  await createMember(page);
  const strategies = (await (await page.request.get('/api/content/strategies')).json()) as { strategies: { id: string }[] };
  expect(strategies.strategies.length).toBeGreaterThan(0);

  await visit(page, '/dashboard/strategies');
  // Every strategy's detail view (it opens in place, without a URL of its own).
  const cards = page.getByRole('main').getByRole('button').filter({ hasText: 'Learn Strategy' });
  await expect(cards).toHaveCount(strategies.strategies.length);
  for (let index = 0; index < strategies.strategies.length; index += 1) {
    await cards.nth(index).click();
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Back to Strategies' }).click();
  }
  await visit(page, '/dashboard/discord');
  for (const section of ['all', 'account', 'subscription', 'upgrade']) {
    await visit(page, `/dashboard/settings?section=${section}`, '/dashboard/settings');
  }
  await visit(page, '/dashboard/no-such-page');

  // The sandbox provider's billing portal, reached the way a member reaches it.
  await visit(page, '/dashboard/settings?section=subscription', '/dashboard/settings');
  await page.getByRole('button', { name: 'Manage Subscription' }).click();
  await page.waitForURL(/\/sandbox\/portal\//);
  await page.waitForLoadState('networkidle');
  await expect(page.locator('h1, h2').first()).toBeVisible();
  expect(problems).toEqual([]);
});
