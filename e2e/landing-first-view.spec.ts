import { expect, test } from './test';
import { createMember } from './member';

// The landing page's first view is real HTML from the server (docs/decisions/015), and
// members still go to the dashboard without seeing it. The e2e server's sale ends in 2099.

const HEADLINE = 'Boost Your Trading with Next-Gen Indicators';
const EU_OFFER = 'This special offer is only available through the ad you saw.';

test('the first HTML response of / and /eu already has the header, the offer bar and the hero', async ({ request }) => {
  const home = await request.get('/');
  expect(home.headers()['content-type']).toMatch(/text\/html/);
  const html = await home.text();
  expect(html).toContain('Boost Your Trading with <span');
  expect(html).toContain('Save up to 65%');
  expect(html).toContain('data-testid="sale-countdown"');
  expect(html).toContain('<title>Candlewise – Next-Gen TradingView Indicators</title>');

  const eu = await (await request.get('/eu')).text();
  expect(eu).toContain(EU_OFFER);
  expect(eu).not.toContain('data-testid="sale-countdown"');
  expect(await (await request.get('/?from=eu')).text()).toContain(EU_OFFER);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the hero is on screen', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: HEADLINE })).toBeVisible();
    await expect(page.getByRole('button', { name: /Start Risk-Free Today/ })).toBeVisible();
  });
});

test('the page hydrates: the countdown ticks and the hero button scrolls to the prices', async ({ page }) => {
  await page.goto('/');
  const timer = page.getByRole('timer');
  const before = await timer.getAttribute('aria-label');
  await expect.poll(() => timer.getAttribute('aria-label')).not.toBe(before);
  await page.getByRole('button', { name: /Start Risk-Free Today/ }).click();
  await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeInViewport();
});

// The stylesheet, the pages' one render-blocking request, is inlined. Neither the browser
// (the disabled <link>) nor Vite's preload helper (the page's dynamic imports list it) fetch it.
const UNSTYLED = 'rgba(0, 0, 0, 0)';

test('/ and a legal page are styled without fetching the stylesheet, also once hydrated', async ({ page }) => {
  const stylesheets: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'stylesheet' || new URL(request.url()).pathname.endsWith('.css')) stylesheets.push(request.url());
  });
  await page.goto('/');
  const timer = page.getByRole('timer');
  const before = await timer.getAttribute('aria-label');
  await expect.poll(() => timer.getAttribute('aria-label')).not.toBe(before);
  await page.waitForLoadState('networkidle');
  await expect(page.locator('body')).not.toHaveCSS('background-color', UNSTYLED);
  await page.goto('/terms-of-service');
  await page.waitForLoadState('networkidle');
  await expect(page.locator('body')).not.toHaveCSS('background-color', UNSTYLED);
  expect(stylesheets).toEqual([]);
});

test('a signed-in paying member lands on /dashboard and the landing page never shows', async ({ page }) => {
  await createMember(page);
  // With a session cookie the server sends the app, not the pre-rendered landing page.
  expect(await (await page.request.get('/')).text()).not.toContain(HEADLINE.slice(0, 20));

  await page.addInitScript((headline) => {
    const seen = { landing: false };
    Object.assign(window, { __landingSeen: seen });
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) if (node.textContent?.includes(headline)) seen.landing = true;
    }).observe(document, { childList: true, subtree: true });
  }, HEADLINE);
  for (const path of ['/', '/eu']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/dashboard/);
    expect(await page.evaluate(() => (window as unknown as { __landingSeen: { landing: boolean } }).__landingSeen.landing)).toBe(false);
  }
});

test('a tap on a button while the page is still loading its code is not lost', async ({ page }) => {
  // Regression: the page's code loads after the first paint (decision 020); a tap before it had
  // hydrated did nothing (the mobile menu stayed shut). Hold the code back until the tap is made.
  let release = () => {};
  const tapped = new Promise<void>((done) => (release = done));
  await page.route(/\/assets\/landing-hydrate-[^/]+\.js$/, async (route) => {
    await tapped;
    await route.continue();
  });
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await page.getByRole('button', { name: /Start Risk-Free Today/ }).click();
  release();
  await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeInViewport();
});

test('a tap on a button below the hero while its section\'s code is on its way is not lost', async ({ page }) => {
  // Regression: the whole page arrives as HTML and its sections hydrate from their own chunk; a tap
  // on 'Unlock Access' made before that chunk had come was dropped. Hold the chunk until the tap.
  let release = () => {};
  const tapped = new Promise<void>((done) => (release = done));
  await page.route(/\/assets\/below-the-fold-[^/]+\.js$/, async (route) => {
    await tapped;
    await route.continue();
  });
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await page.getByRole('button', { name: 'Unlock Access' }).first().click();
  release();
  await expect(page.getByRole('heading', { name: 'Choose Your Plan' })).toBeInViewport();
});
