import type { Page } from '@playwright/test';
import { expect, test } from './test';
import { createMember } from './member';

// The legal pages are real HTML from the server too (docs/decisions/020): the text is in the first
// response, the page hydrates without a word in the console, and its links keep working.

const PAGES = [
  { path: '/disclaimer', title: 'Disclaimer' },
  { path: '/terms-of-service', title: 'Terms of Service' },
  { path: '/privacy-policy', title: 'Privacy Policy' },
  { path: '/contact', title: 'Contact' },
];

/** True once React has hydrated the page's headline (it keeps its fiber on the element). */
const hydrated = (page: Page) =>
  page.waitForFunction(() => {
    const heading = document.querySelector('h1');
    return heading !== null && Object.keys(heading).some((key) => key.startsWith('__reactFiber'));
  });

test('the first HTML response of every legal page already has the page', async ({ request }) => {
  for (const { path, title } of PAGES) {
    const html = await (await request.get(path)).text();
    expect(html).toContain(`${title}</h1>`);
    expect(html).toContain(`<title>${title} – Candlewise</title>`);
    expect(html).toMatch(/href="\/"[^>]*>.*Back to Homepage/);
  }
  const eu = await (await request.get('/terms-of-service?from=eu')).text();
  expect(eu).toMatch(/href="\/eu"[^>]*>.*Back to Homepage/);
  expect(eu).toContain('href="/contact?from=eu"');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a legal page is on screen and its links lead on', async ({ page }) => {
    await page.goto('/privacy-policy?from=eu');
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Legal' }).getByRole('link', { name: 'Contact' }).click();
    await expect(page).toHaveURL(/\/contact\?from=eu$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Contact' })).toBeVisible();
  });
});

test('a legal page hydrates with nothing logged and leads back to the offer the visitor came from', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  for (const { path, title } of PAGES) {
    await page.goto(`${path}?from=eu`);
    await hydrated(page);
    await expect(page).toHaveTitle(`${title} – Candlewise`);
  }
  await page.getByRole('link', { name: 'Back to Homepage' }).click();
  await expect(page).toHaveURL(/\/eu$/);
  await expect(page.getByText('This special offer is only available through the ad you saw.')).toBeVisible();
  expect(problems).toEqual([]);
});

test('a signed-in member gets the same pre-rendered page', async ({ page }) => {
  await createMember(page);
  expect(await (await page.request.get('/contact')).text()).toContain('Contact</h1>');
  await page.goto('/contact');
  await hydrated(page);
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByRole('link', { name: /Email support/ })).toBeVisible();
});
