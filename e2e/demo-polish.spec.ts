import type { Locator, Page } from '@playwright/test';
import { expect, test } from './test';
import { scrollIntoView } from './fixtures';
import { createMember } from './member';

// Regressions from a newcomer's look at the demo: three different brand marks, a
// Sandbox tag over the "Pro Toolkits" heading and the copyright line, a Security Score card over
// the member pages, and a half-empty support panel.

/** True when the element's centre is not covered by anything else on screen. */
const uncovered = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return top !== null && (element === top || element.contains(top));
  });

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box, 'element on screen').not.toBeNull();
  return box!;
}

const logoSources = (page: Page) => page.getByTestId('brand-logo').evaluateAll((images) => images.map((image) => image.getAttribute('src')));

/**
 * The image behind a mark's URL: the pre-rendered pages (/, the legal pages) carry the built-in
 * mark in their HTML as a data: URL (decision 020), the app links to the file.
 */
async function markAt(page: Page, url: string): Promise<{ type: string; bytes: string }> {
  const inline = /^data:([^;,]+);base64,(.*)$/.exec(url);
  if (inline) return { type: inline[1]!, bytes: Buffer.from(inline[2]!, 'base64').toString('hex') };
  const response = await page.request.get(url);
  return { type: (response.headers()['content-type'] ?? '').split(';')[0]!.trim(), bytes: (await response.body()).toString('hex') };
}

test('one brand mark everywhere, and it is the favicon', async ({ page }) => {
  const marks = new Map<string, { type: string; bytes: string }>();
  const favicons = new Set<string>();
  const sources = new Set<string>();
  const look = async () => {
    for (const source of await logoSources(page)) sources.add(source ?? '');
    const favicon = await page.locator('link[rel="icon"]').getAttribute('href');
    expect(favicon).toBeTruthy();
    favicons.add(favicon!);
  };
  await page.goto('/');
  await look();
  for (const path of ['/auth', '/payment-canceled', '/terms-of-service', '/no/such/page']) {
    await page.goto(path);
    await expect(page.getByTestId('brand-logo').first()).toBeVisible();
    await look();
  }
  await createMember(page, undefined, { throughCheckoutPage: true });
  await expect(page.getByTestId('brand-logo').first()).toBeVisible();
  await look();
  await page.goto('/dashboard/guides');
  await expect(page.getByRole('heading', { name: 'Trading Guides' })).toBeVisible();
  await look();

  // every logo is a favicon of the same page kind, and every one of them is the same image
  expect([...sources].filter((source) => !favicons.has(source))).toEqual([]);
  for (const url of favicons) marks.set(url, await markAt(page, url));
  const images = [...marks.values()];
  // The mark loads (an image that is really there).
  for (const image of images) expect(image.type).toMatch(/^image\//);
  expect(images[0]!.bytes.length).toBeGreaterThan(0);
  expect(new Set(images.map((image) => `${image.type} ${image.bytes}`)).size).toBe(1);
});

test('the Sandbox tag covers neither the "Pro Toolkits" heading nor the copyright line', async ({ page }) => {
  await page.goto('/');
  const tag = page.getByTestId('sandbox-marker').first();
  await expect(tag).toBeVisible();
  const overlaps = async (other: Locator) => {
    const [a, b] = [await boxOf(tag), await boxOf(other)];
    return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  };
  // The heading at the bottom of the window, where a corner tag used to sit on it, then mid-screen.
  const heading = page.getByRole('heading', { name: 'Pro Toolkits' });
  // (found again on each try: a busy machine can still be hydrating the section and replace it)
  await scrollIntoView(heading, 'end');
  expect(await overlaps(heading)).toBe(false);
  await scrollIntoView(heading);
  expect(await overlaps(heading)).toBe(false);
  await expect.poll(() => uncovered(heading)).toBe(true);
  // The copyright line is the last line of the page, in the bottom-left corner. Scrolled to the
  // window's bottom edge again on each try: a busy machine may still be rendering the sections above
  // it, which pushes it down.
  const copyright = page.getByText(/All rights reserved/);
  await expect(async () => {
    await scrollIntoView(copyright, 'end');
    expect(await overlaps(copyright)).toBe(false);
    expect(await uncovered(copyright)).toBe(true);
  }).toPass({ timeout: 30_000 });
  // The tag itself stays readable next to the brand name.
  await expect.poll(() => uncovered(tag)).toBe(true);
});

test('the support panel without a chat address is filled with contact options, none cut off', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open support chat' }).click();
  const panel = page.getByRole('dialog', { name: 'Support chat' });
  for (const name of [/Email us/, /Join our Discord/, /Read the guides/]) await expect(panel.getByRole('link', { name })).toBeVisible();
  await expect(panel.getByRole('button', { name: /Common questions/ })).toBeVisible();
  const reply = panel.getByText('We reply within 24 hours on business days.');
  const panelBox = await boxOf(panel);
  const replyBox = await boxOf(reply);
  expect(replyBox.y + replyBox.height).toBeLessThanOrEqual(panelBox.y + panelBox.height);
  // Filled: the last line sits near the bottom instead of leaving half the panel empty.
  expect(panelBox.y + panelBox.height - (replyBox.y + replyBox.height)).toBeLessThan(60);
});

test('the Security Score sits in the sidebar and never covers the member pages', async ({ page }) => {
  await createMember(page);
  for (const path of ['/dashboard/guides?guide=getting-started', '/dashboard/settings?section=all', '/dashboard/settings?section=upgrade']) {
    await page.goto(path);
    const score = page.getByRole('complementary', { name: 'Security' });
    await expect(score.getByTestId('security-score')).toBeVisible();
    const main = await boxOf(page.getByRole('main'));
    const panel = await boxOf(score);
    expect(panel.x + panel.width, path).toBeLessThanOrEqual(main.x);
    // The last thing of the page (e.g. Related Guides, the plan-change features) is not covered.
    // Scrolled to on every look: the page may still grow, or go back to its top when its data
    // arrives, after a first scroll.
    const last = page.getByRole('main').locator('li, p, a').last();
    await expect
      .poll(
        async () => {
          await last.scrollIntoViewIfNeeded();
          return uncovered(last);
        },
        { message: path },
      )
      .toBe(true);
  }
});
